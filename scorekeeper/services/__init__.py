"""The one path for every write: views, the JSON API and the CLI all call these functions.

Each function loads what it needs, asks the rules core, and commits once; on any
problem it raises a :class:`~scorekeeper.services.errors.ServiceError` before
anything is written.
"""
