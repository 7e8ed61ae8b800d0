"""Whatever a phone sends, the answer is a page or a JSON error, never a 500, and bad input changes nothing."""

from __future__ import annotations

from club_days import on_the_club_clock
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from web import create_app

anything = st.one_of(st.text(max_size=40), st.sampled_from(["", "9", "13", "a", "b", "draw", "-1", "1e309", "NaN"]))
json_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
FORM = ["size", "a", "b", "winner", "by", "points", "at", "action"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.fixed_dictionaries({}, optional={name: anything for name in FORM}))
def test_the_new_game_form_never_fails(home, hidden, fields: dict[str, str]) -> None:
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client()
    token = hidden(client.get("/new").get_data(as_text=True))
    response = client.post("/new", data={**token, **fields})
    assert response.status_code in (200, 302, 400)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "size": json_value | st.sampled_from([9, 13, 19]),
            "players": json_value | st.just(["Bianka", "Czarek"]),
            "winner": json_value | st.sampled_from(["Bianka", "Czarek", None]),
            "by": json_value,
            "at": json_value,
            "key": json_value,
        },
    )
)
def test_the_games_api_never_fails(home, body: dict[str, object]) -> None:
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client()
    response = client.post("/api/games", json=body)
    assert response.status_code in (201, 400), response.get_data(as_text=True)
    assert response.is_json


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(["/", "/new", "/handicap", "/api/handicap", "/api/board", "/api/games", "/board.png"]),
    query=st.dictionaries(st.sampled_from(["size", "a", "b", "limit"]), st.text(max_size=12), max_size=4),
)
def test_every_page_answers_any_query(home, path: str, query: dict[str, str]) -> None:
    client = create_app(on_the_club_clock({"SEMEDORI_HOME": str(home)})).test_client()
    assert client.get(path, query_string=query).status_code in (200, 400)
