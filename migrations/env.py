"""Alembic environment for Flask-Migrate, safe for SQLite's table rebuilds."""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

import sqlalchemy as sa
from alembic import context
from flask import current_app

config = context.config
# Logging set up from alembic.ini for `flask db`, not when the running app migrates a copy of
# an old backup (services.backups): that would replace the server's own logging.
if config.config_file_name and config.attributes.get("configure_logger", True):
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

    if target_db.engine.dialect.name != "sqlite":
        with target_db.engine.connect() as connection:
            context.configure(
                connection=connection, target_metadata=target_db.metadata, **conf_args
            )
            with context.begin_transaction():
                context.run_migrations()
        return

    # SQLite: a connection of its own, never one from the app's pool, so nothing a
    # migration switches off can leak into the app. The driver's own transaction handling
    # is off and BEGIN is sent explicitly, so every statement, DDL included, runs in one
    # transaction that any failure rolls back whole.
    engine = sa.create_engine(target_db.engine.url, poolclass=sa.pool.NullPool)

    @sa.event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    try:
        with engine.connect() as connection:
            # Batch mode rebuilds a table by dropping it; with foreign keys ON that
            # cascades and silently deletes every child row. The pragma only works
            # outside a transaction.
            connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
            with connection.begin():
                context.configure(
                    connection=connection, target_metadata=target_db.metadata, **conf_args
                )
                with context.begin_transaction():
                    context.run_migrations()
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    # Raised inside the transaction: the whole migration is rolled back.
                    raise RuntimeError(
                        f"migration left rows with broken foreign keys: {broken[:5]}"
                    )
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
