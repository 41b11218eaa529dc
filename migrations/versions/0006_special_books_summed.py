"""special books in the team totals: standings count a house rule's own books too

Revision ID: 0006
Revises: 0005
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

deal_result = sa.table(
    "deal_result",
    sa.column("team_id", sa.Integer()),
    sa.column("special_books", sa.Text()),
)
team_total = sa.table(
    "team_total",
    sa.column("team_id", sa.Integer()),
    sa.column("special_books", sa.Integer()),
)


def special_count(text):
    """The special books one deal result holds, every kind together, from its JSON text.

    The services write a mapping of book ids to whole counts; anything else (changed by hand)
    counts none here, as the pages refuse to read it in words.
    """
    if text is None:
        return 0
    try:
        books = json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return 0
    if not isinstance(books, dict):
        return 0
    return sum(n for n in books.values() if type(n) is int and n > 0)


def upgrade():
    # Added in place (no table rebuild), every row 0; then the games already played.
    op.add_column(
        "team_total",
        sa.Column("special_books", sa.Integer(), server_default="0", nullable=False),
    )
    bind = op.get_bind()
    # Most deal results hold no special book: "{}" or nothing at all.
    rows = bind.execute(
        sa.select(deal_result.c.team_id, sa.cast(deal_result.c.special_books, sa.Text())).where(
            deal_result.c.special_books.is_not(None),
            sa.cast(deal_result.c.special_books, sa.Text()) != "{}",
        )
    )
    counts = {}
    for team_id, text in rows:
        counts[team_id] = counts.get(team_id, 0) + special_count(text)
    for team_id, count in counts.items():
        if count:
            bind.execute(
                sa.update(team_total)
                .where(team_total.c.team_id == team_id)
                .values(special_books=count)
            )


def downgrade():
    # Dropped in place: SQLite (3.35 and later) and PostgreSQL both can, no table is rebuilt.
    op.drop_column("team_total", "special_books")
