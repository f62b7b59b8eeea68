"""Every example a checked sentence of the docs gives is sent by the suite, or listed in
docs/example-literals.json with the reason it need not be (tools/example_literals.py)."""

from __future__ import annotations

from tools import example_literals


def test_every_example_is_sent_or_listed_with_a_reason() -> None:
    problems = example_literals.problems()
    assert not problems, "\n".join(problems)


def test_an_example_inside_parentheses_is_found() -> None:
    text = "a number such as (`gen-7` or `gen-+0000007`), not `outside`"
    assert list(example_literals.spans_in_parentheses(text)) == ["gen-7", "gen-+0000007"]


def test_a_prompt_example_is_sent_in_any_letter_case() -> None:
    assert example_literals.is_sent("what's up", "intents.md", "What's up?", "what's up?")
    assert not example_literals.is_sent("Staging-1", "state.md", "staging-1", "staging-1")
