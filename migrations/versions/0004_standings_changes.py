"""standings changes: which game each step of the standings stamp changed

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    # Empty to start with: a cache of standings older than the first row computes them all.
    op.create_table(
        "standings_change",
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("version", name=op.f("pk_standings_change")),
    )


def downgrade():
    op.drop_table("standings_change")
