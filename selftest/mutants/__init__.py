"""Deliberately broken engines, one defect each, grouped by the part of the engine they break."""
