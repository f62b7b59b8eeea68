"""The engine side of protocol ``core-engine/1`` (``docs/protocol.md``).

``envelope`` parses requests and builds responses, ``args`` types arguments,
``handler`` answers ops (``state_ops`` adds the persisted-state ops), and
``stdio`` runs the line loop.
"""
