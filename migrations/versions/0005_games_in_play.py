"""an index for the games still being played, newest first (the home page)

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_game_in_play",
        "game",
        ["finished_at", "abandoned_at", "deleted_at", "played_on"],
        unique=False,
    )


def downgrade():
    op.drop_index("ix_game_in_play", table_name="game")
