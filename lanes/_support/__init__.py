"""Support shared by the lanes and the maintainer tools: the cognition lane's cases and
runner (``cognition``) and the golden snapshot store (``golden``)."""
