"""a stable identity for every game, so importing an export twice adds each game once

Revision ID: 0002
Revises: 0001
"""

import uuid

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    # Added nullable, filled for the games already there, then made required and unique.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("uid", sa.String(length=32), nullable=True))

    game = sa.table("game", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    connection = op.get_bind()
    ids = connection.execute(sa.select(game.c.id).where(game.c.uid.is_(None))).scalars().all()
    for game_id in ids:
        connection.execute(game.update().where(game.c.id == game_id).values(uid=uuid.uuid4().hex))

    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_game_uid"), ["uid"])


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_game_uid"), type_="unique")
        batch_op.drop_column("uid")
