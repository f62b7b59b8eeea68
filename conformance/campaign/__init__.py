"""Campaigns: engines x profile, cut into tasks that Dask workers run on their own engines.

``plan`` turns a campaign spec into tasks, ``worker`` runs one task, ``store`` keeps
finished tasks on disk so a campaign resumes where it stopped, ``assemble`` joins
task results into one report per engine, ``run`` drives a Dask cluster and ``cli``
is ``python -m conformance campaign``.
"""
