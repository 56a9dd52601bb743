"""The database's plan for a query, to check that an index serves it."""

from django.db import connection, transaction
from django.db.models import QuerySet


def plan_of(query: QuerySet) -> str:
    """Return the plan the database would follow for the query.

    PostgreSQL's planner reads a few rows more cheaply by a sequential scan than through any
    index, and a test's tables hold a few rows: the plan is asked for with sequential scans
    priced out (for this transaction only), so that it shows whether an index can serve the
    query, which is what matters once the table is large.
    """
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_seqscan = off")
        return query.explain()
