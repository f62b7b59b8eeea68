"""The surface check: an expected fragment named only inside a refusal is not grounded."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lanes._support.cognition import Turn, surface_grounded
from reference.runtime import ChatRuntime


def _turn(*fragments: str) -> Turn:
    return Turn("", "DEFINITION", (), fragments)


@pytest.fixture(scope="module")
def oov():
    return ChatRuntime().chat("What is a zorbleflax?")


def test_a_term_quoted_by_a_refusal_is_not_grounded(oov):
    assert "zorbleflax" in oov.surface
    assert not surface_grounded(_turn("zorbleflax"), oov)


def test_the_refusal_wording_itself_can_be_expected(oov):
    assert surface_grounded(_turn("not in any language pack"), oov)


def test_a_bare_refusal_can_be_expected():
    response = ChatRuntime().chat("hello")
    assert surface_grounded(_turn("I don't know"), response)
    assert not surface_grounded(_turn("hello"), replace(response, surface="I don't know 'hello'."))


def test_a_grounded_surface_is_checked_as_written():
    response = ChatRuntime().chat("What is a river?")
    assert surface_grounded(_turn("River is", "pack-grounded (nature_v1)"), response)
    assert not surface_grounded(_turn("ocean"), response)
