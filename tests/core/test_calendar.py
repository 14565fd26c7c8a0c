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
