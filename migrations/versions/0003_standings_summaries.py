"""team totals and the standings stamp: summaries the write path keeps for standings;
an index for lists of games newest first

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

# The summaries of games already played, computed once here as the services would keep them:
# each team's sums over its deals, then its share of the win, margin and stock-outs.
BACKFILL = """
INSERT INTO team_total (team_id, game_id, total, deals, clean_books, dirty_books, wild_books,
    black_three_books, red_threes, red_threes_caught, went_out, win_units, margin, stock_outs)
SELECT team_id, game_id, total, deals, clean_books, dirty_books, wild_books,
    black_three_books, red_threes, red_threes_caught, went_out,
    CASE WHEN total = top THEN 840 / level ELSE 0 END,
    total - CASE WHEN total = top THEN second ELSE top END,
    deals - game_outs
FROM (
    SELECT s.*,
        MAX(total) OVER (PARTITION BY game_id) AS top,
        NTH_VALUE(total, 2) OVER (PARTITION BY game_id ORDER BY total DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second,
        COUNT(*) OVER (PARTITION BY game_id, total) AS level,
        SUM(went_out) OVER (PARTITION BY game_id) AS game_outs
    FROM (
        SELECT team.id AS team_id, team.game_id AS game_id,
            SUM(r.score) AS total, COUNT(r.id) AS deals,
            SUM(r.clean_books) AS clean_books, SUM(r.dirty_books) AS dirty_books,
            SUM(r.wild_books) AS wild_books, SUM(r.black_three_books) AS black_three_books,
            SUM(r.red_threes) AS red_threes, SUM(r.red_threes_caught) AS red_threes_caught,
            SUM(CASE WHEN r.went_out THEN 1 ELSE 0 END) AS went_out
        FROM deal_result AS r JOIN team ON r.team_id = team.id
        GROUP BY team.id, team.game_id
    ) AS s
) AS ranked
"""


def upgrade():
    op.create_table(
        "team_total",
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("clean_books", sa.Integer(), nullable=False),
        sa.Column("dirty_books", sa.Integer(), nullable=False),
        sa.Column("wild_books", sa.Integer(), nullable=False),
        sa.Column("black_three_books", sa.Integer(), nullable=False),
        sa.Column("red_threes", sa.Integer(), nullable=False),
        sa.Column("red_threes_caught", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Integer(), nullable=False),
        sa.Column("win_units", sa.Integer(), nullable=False),
        sa.Column("margin", sa.Integer(), nullable=False),
        sa.Column("stock_outs", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_team_total_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["team.id"], name=op.f("fk_team_total_team_id_team"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("team_id", name=op.f("pk_team_total")),
    )
    with op.batch_alter_table("team_total", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_team_total_game_id"), ["game_id"], unique=False)
    op.create_table(
        "standings_stamp",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standings_stamp")),
    )
    op.create_index(
        "ix_game_deleted_at_played_on", "game", ["deleted_at", "played_on"], unique=False
    )
    op.execute(BACKFILL)
    # The stamp starts with the first change the app writes; a database with games has one.
    op.execute(
        "INSERT INTO standings_stamp (id, version) SELECT 1, 1 WHERE EXISTS (SELECT 1 FROM game)"
    )


def downgrade():
    op.drop_index("ix_game_deleted_at_played_on", table_name="game")
    op.drop_table("standings_stamp")
    with op.batch_alter_table("team_total", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_team_total_game_id"))
    op.drop_table("team_total")
