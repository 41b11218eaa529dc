"""Alembic environment for Flask-Migrate, safe for SQLite's table rebuilds."""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from flask import current_app

config = context.config
if config.config_file_name:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url",
    target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"),
)


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    def process_revision_directives(context: Any, revision: Any, directives: Any) -> None:
        # Never write an empty migration when the models did not change.
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    conf_args.setdefault("process_revision_directives", process_revision_directives)

    with target_db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch mode rebuilds a table by dropping it; with foreign keys ON that
            # cascades and silently deletes every child row. Switch them off (the
            # pragma only works outside a transaction, hence the commit).
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(connection=connection, target_metadata=target_db.metadata, **conf_args)
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
            if broken:
                raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:5]}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
