from resolver.core.calendar import Calendar


def test_seasons_one_turn_each() -> None:
    cal = Calendar.from_rules({"periods": ["Spring", "Summer", "Autumn", "Winter"], "start_year": 1})
    assert cal.date(1).label == "Spring, Year 1"
    assert cal.date(4).label == "Winter, Year 1"
    assert cal.date(5).label == "Spring, Year 2"


def test_weeks_within_months_with_seasons() -> None:
    cal = Calendar.from_rules(
        {
            "periods": [
                {"name": "Month 1", "season": "Spring"},
                {"name": "Month 2", "season": "Spring"},
                {"name": "Month 3", "season": "Summer"},
            ],
            "turns_per_period": 4,
        }
    )
    first, fifth, last = cal.date(1), cal.date(5), cal.date(12)
    assert first.label == "Week 1, Month 1, Year 1" and first.season == "Spring"
    assert (fifth.step, fifth.period) == (1, "Month 2")
    assert (last.step, last.period, last.season) == (4, "Month 3", "Summer")
    assert cal.date(13).year == 2


def test_phases_can_run_only_in_some_seasons_weeks_or_turns() -> None:
    from resolver.core.phases import build_table

    cal = Calendar.from_rules(
        {
            "periods": [{"name": "Thaw", "season": "Spring"}, {"name": "Frost", "season": "Winter"}],
            "turns_per_period": 4,
        }
    )
    declared = [
        {
            "id": "raiders",
            "title": "Raiders",
            "summary": "NPC raiders strike.",
            "when": {"seasons": ["Winter"]},
        },
        {"id": "upkeep", "title": "Upkeep", "summary": "Pay upkeep.", "when": {"steps": [4]}},
        {"id": "scores", "title": "Scores", "summary": "Victory points.", "when": {"every": 8}},
        {"id": "always", "title": "Always", "summary": "Every turn."},
    ]
    phases = {p.id: p for p in build_table(declared, {d["id"]: (lambda ctx, s: s) for d in declared})}
    runs = {pid: [t for t in range(1, 17) if p.runs_on(cal.date(t))] for pid, p in phases.items()}
    assert runs["raiders"] == [5, 6, 7, 8, 13, 14, 15, 16]
    assert runs["upkeep"] == [4, 8, 12, 16]
    assert runs["scores"] == [8, 16]
    assert runs["always"] == list(range(1, 17))
    assert phases["raiders"].when_text() == "in Winter"
