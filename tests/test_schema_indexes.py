"""Every foreign key that pages filter or join on has an index leading with its columns:
without one, a whole-Games page scans the child table once per parent row on PostgreSQL
(issue 13: entry.delegation_id and entry_member.entry_id had none)."""
from sqlalchemy import inspect


def foreign_keys_without_an_index(engine) -> list[str]:
    insp = inspect(engine)
    missing = []
    for table in insp.get_table_names():
        if table == "alembic_version":
            continue
        leading = [i["column_names"] for i in insp.get_indexes(table)]
        leading += [u["column_names"] for u in insp.get_unique_constraints(table)]
        leading.append(insp.get_pk_constraint(table)["constrained_columns"])
        for fk in insp.get_foreign_keys(table):
            cols = fk["constrained_columns"]
            if not any(lead[:len(cols)] == cols for lead in leading):
                missing.append(f"{table}.{','.join(cols)}")
    return missing


def test_every_foreign_key_has_an_index(app):
    from portal.extensions import db
    with app.app_context():
        assert foreign_keys_without_an_index(db.engine) == []
