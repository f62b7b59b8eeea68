"""The probes of the ledger audit: for each sampled sentence, the broken engines that
violate it, and the judgement of each sampled informative sentence.

A probe names its engine as ``KIND:NAME``: ``audit:`` a class of
``selftest/mutants/audit.py``, ``broken:`` an entry of ``selftest.engines.BROKEN``,
``state:`` one of ``selftest.state_mutants.BROKEN_STATE``, ``rule:`` the reference
without one entry of forms.json (``selftest/mutants/rule_deletions.py``), ``swap:`` a
member of ``selftest.mutants.enumerations.SWAPS``. ``ADDED`` lists the requirement ids
the audit added to a sentence's ledger entry (a citation it found wrong or incomplete),
so a run tells what the ledger cited before the audit from what it cites now.
"""

from __future__ import annotations

PROBES: dict[str, tuple[str, ...]] = {
    "protocol.md#algebra-ops#d2c032f1e3": ("audit:ReverseIsConjugate",),
    "protocol.md#session-chat#3f60b0a8a2": ("broken:chat_shape_wrong",),
    "protocol.md#session-chat#0fce6718fb": ("audit:IntentInLowerCase",),
    "protocol.md#persisted-state-ops#8d7d5db1db": ("state:pending_cap_inclusive",),
    "protocol.md#persisted-state-ops#1eb0bbedf0": (
        "state:debris_removal_unreported",
        "state:write_mode_misreported",
    ),
    "protocol.md#requests#da4f185346": ("broken:lone_surrogates_repaired",),
    "protocol.md#requests#f6b6966157": ("audit:MinusZeroAsDouble",),
    "registers.md#the-ratification-gate#085f71b016": (
        "broken:empty_non_null_ratified",
        "broken:gate_refusal_without_field",
    ),
    "registers.md#error-codes#a506bb8c55": ("audit:UnknownBucketIgnored",),
    "registers.md#the-ratification-gate#93a940d6e2": (
        "audit:MethodsUnsorted",
        "audit:NullLiftOmitted",
    ),
    "registers.md#pack-format#52e8e45918": ("broken:semver_schema_version",),
    "registers.md#no-register-the-seed-s-unregistered-and-the-protocol-s-null#528761c9c6": (
        "audit:SentinelOnTheWire",
        "broken:sentinel_id_loads_sentinel",
    ),
    "spec.md#algebra#97a995a463": ("audit:RotorRenormalized",),
    "spec.md#crash-requirements#5375b5d6b3": ("state:no_dir_fsync",),
    "spec.md#freedoms#208553f435": ("broken:replay_leak", "broken:answer_steps_cut_by_register"),
    "spec.md#cognition#4db1e65787": (
        "audit:SaidKeptTwo",
        "broken:edge_latest_subject_cleared",
        "broken:edge_first_subject_kept",
    ),
    "intents.md#the-table-of-forms#f6d4263682": ("rule:F-129",),
    "intents.md#the-table-of-forms#f8aa524170": ("rule:F-118",),
    "intents.md#cue-words#2125f55df2": ("swap:cue C-05 recipe", "swap:cue C-05 tutorial"),
    "intents.md#the-table-of-forms#6e6326edb7": ("rule:F-172",),
    "intents.md#the-table-of-forms#75b362c852": ("rule:F-072",),
    "intents.md#the-table-of-forms#d83e1b88b5": ("audit:LeadAloneUnknown",),
    "intents.md#what-an-answer-says-as-data-says#2373df77b5": (
        "broken:edge_earlier_skips_recalls",
        "broken:edge_recall_counts_recall_turns",
    ),
    "intents.md#answers#cb99d6f0bf": ("broken:answer_steps_file_order", "audit:PathDepthFirst"),
    "intents.md#the-table-of-forms#7ff776952d": ("rule:F-023",),
    "intents.md#the-table-of-forms#916e43bb4e": ("rule:F-188",),
    "intents.md#what-an-answer-says-as-data-says#c41fb3fd12": (
        "broken:answer_recall_claim_in_turn_order",
        "broken:answer_said_utf16_cut",
    ),
    "intents.md#the-table-of-forms#1fcc850f29": ("rule:F-084",),
    "intents.md#the-twelve-intents#c24b0e745e": ("audit:RecallReadAsNarrative",),
    "intents.md#the-table-of-forms#066848cecb": ("audit:StoryOfMisfiled",),
    "intents.md#the-table-of-forms#d30044738f": ("rule:F-156",),
    "intents.md#what-an-answer-says-as-data-says#78484e3c3d": ("broken:answer_spans_to_depth",),
    "intents.md#answers#9c7525ca0d": ("broken:verdict_dropped", "audit:GlosslessVerdictDropped"),
    "intents.md#how-a-prompt-is-read#5e44952181": ("broken:edge_simple_lowercase",),
    "state.md#the-persistent-core-core-jsonl#512eef7185": (
        "state:normalised_keys",
        "state:folded_keys",
        "state:utf16_key_length",
    ),
    "state.md#single-writer#edf5236729": ("state:unpadded_lock_name",),
    "state.md#the-persistent-core-core-jsonl#2fdea4429a": (
        "state:defaults_written",
        "state:whole_floats_as_integers",
    ),
    "state.md#the-life#64ba300521": ("state:field_without_vault",),
    "state.md#the-persistent-core-core-jsonl#3325afdfca": (
        "audit:SessionKeyedById",
        "audit:SessionRegisterEmpty",
    ),
    "state.md#error-codes#28346b3219": (
        "state:unreadable_as_missing",
        "state:unreadable_invalid",
        "state:root_failure_as_io",
    ),
    "trace-hash.md#how-floats-enter-a-hash#5c2baf8aa0": ("audit:AddressOfNativeDoubles",),
    "trace-hash.md#fields-of-the-sealed-object#fc80c6f346": ("audit:HashOfDisclosedDomains",),
    "trace-hash.md#canonical-json#7016d2f171": (
        "broken:ascii_escaped_wire",
        "broken:utf16_key_order_wire",
    ),
    "trace-hash.md#vault-addresses#c32a40d3b4": ("state:vault_address_low_bits",),
}
"""Sampled checked sentence -> the broken engines that each violate it."""

ADDED: dict[str, tuple[str, ...]] = {
    "spec.md#cognition#4db1e65787": ("COG-EDGE-001",),
    "intents.md#what-an-answer-says-as-data-says#2373df77b5": ("COG-EDGE-001",),
}
"""Ids the audit added to a sentence's entry: its probes failed only those."""

NOTES: dict[str, str] = {
    "intents.md#the-table-of-forms#066848cecb": (
        "leaving F-159 out is no violation (the NARRATIVE cue reads it alike, "
        "selftest/test_rule_catalogue.py OVERLAPPED), so the probe files the row under "
        "another intent"
    ),
    "intents.md#the-twelve-intents#c24b0e745e": (
        "leaving out F-002 alone is not caught by COG-INTENT-001 (F-003 and cue C-01 read "
        "the corpus alike), so the probe files every RECALL form and cue under NARRATIVE"
    ),
    "trace-hash.md#canonical-json#7016d2f171": (
        "the trace hash's own encoding is free (FREE-003): a hash over ASCII-escaped JSON "
        "fails nothing; the probes break the rule where it binds (the wire)"
    ),
    "state.md#single-writer#edf5236729": (
        "a Rust binding of the padded abstract name; the probe leaves the name unpadded"
    ),
}
"""What a probe's outcome alone would not tell."""

INFORMATIVE_JUDGED: dict[str, tuple[str, str]] = {
    "spec.md#crash-requirements#9ef52e9924": (
        "informative",
        "the suite's report of STATE-KILL-001; what a restart must load is "
        "spec.md#crash-requirements#5375b5d6b3 (audited above)",
    ),
    "spec.md#coverage-samples#ae5dc0c952": ("informative", "what the suite samples"),
    "spec.md#coverage-samples#850a82a7d0": ("informative", "what the suite samples"),
    "spec.md#cognition#ab1a760355": ("informative", "what the self-test proves of the suite"),
    "spec.md#verdicts#827cbcbfe3": ("informative", "the suite's verdict, not an engine's act"),
    "spec.md#coverage-samples#a802b88842": ("informative", "what the suite samples"),
    "state.md#what-the-crash-tests-prove#91562f076f": (
        "informative",
        "restates STATE-EIO-001/002, cited by state.md § I/O errors and § Journals",
    ),
    "state.md#what-the-crash-tests-prove#92759d976f": (
        "informative",
        "restates STATE-JOURNAL-004, cited by state.md § Journals",
    ),
    "state.md#what-the-crash-tests-prove#d1ffd0247c": (
        "informative",
        "restates STATE-SOAK-002, cited by state.md § Commit protocol and protocol.md",
    ),
    "state.md#what-the-crash-tests-prove#245edb5ad2": (
        "informative",
        "restates STATE-UNREADABLE-001, cited by five sentences of state.md § Confinement",
    ),
}
"""Sampled informative sentence -> (``informative`` or ``reclassified``, why)."""
