import pytest

from resolver.core.yamlsafe import MAX_BYTES, YamlRejected, load_player_yaml


def rejected(text: str | bytes) -> str:
    raw = text.encode() if isinstance(text, str) else text
    with pytest.raises(YamlRejected) as info:
        load_player_yaml(raw, "orders/red.yaml")
    return info.value.issue.format()


def test_positions_of_keys_and_values() -> None:
    doc = load_player_yaml(b"turn: 3\norders:\n  - action: move\n    army: 1\n", "f.yaml")
    assert doc.data == {"turn": 3, "orders": [{"action": "move", "army": 1}]}
    assert doc.pos(("orders", 0, "army")) == (4, 11)
    assert doc.pos(("orders", 0, "army"), key=True) == (4, 5)
    assert doc.pos(("orders", 0, "missing")) == (3, 5)  # falls back to the nearest ancestor


def test_size_cap() -> None:
    message = rejected(b"a: " + b"x" * MAX_BYTES)
    assert "capped at 65,536 bytes" in message


def test_anchors_and_aliases_are_refused_with_their_position() -> None:
    message = rejected("base: &b {army: 1}\norders:\n  - *b\n")
    assert message.startswith("orders/red.yaml:1:7: error: YAML anchors and aliases")
    bomb = 'a: &a ["x","x"]\nb: &b [*a,*a]\nc: [*b,*b]\n'
    assert "anchors and aliases" in rejected(bomb)


def test_duplicate_keys_are_refused() -> None:
    message = rejected("orders:\n  - action: move\n    action: hold\n")
    assert message.startswith("orders/red.yaml:3:5: error: duplicate key 'action' (first given on line 2)")


def test_merge_keys_are_refused() -> None:
    assert "merge keys" in rejected("a: {x: 1}\nb:\n  <<: {x: 2}\n")


def test_syntax_error_has_line_and_fix() -> None:
    message = rejected("orders:\n  - action: [move\n")
    assert message.startswith("orders/red.yaml:3:")
    assert "fix:" in message


def test_not_utf8() -> None:
    assert "not UTF-8" in rejected(b"a: \xff\xfe")


def test_empty_document_is_an_empty_mapping() -> None:
    assert load_player_yaml(b"", "f.yaml").data == {}
