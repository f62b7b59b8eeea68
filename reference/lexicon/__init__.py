"""Language packs: lemmas with part of speech, semantic domains and optional gloss."""

from reference.lexicon.index import Lexicon, base_forms, default_lexicon, load_lexicon
from reference.lexicon.model import LanguagePack, Lemma, TeachingChain, TeachingStep

__all__ = [
    "LanguagePack",
    "Lemma",
    "Lexicon",
    "TeachingChain",
    "TeachingStep",
    "base_forms",
    "default_lexicon",
    "load_lexicon",
]
