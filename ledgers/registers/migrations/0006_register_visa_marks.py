from django.db import migrations, models


def mark_visas(apps, schema_editor):
    """Each register's last visaed seq, and the opening act and visas after it."""
    Register = apps.get_model("registers", "Register")
    Entry = apps.get_model("registers", "Entry")
    for register in Register.objects.exclude(head_seq=0).iterator():
        entries = Entry.objects.filter(register=register)
        last = entries.filter(kind="visa").order_by("-seq").values_list("payload", flat=True).first()
        visaed = last["covers_seq"] if last else 0
        acts = entries.filter(seq__gt=visaed, kind__in=["opening", "visa"]).count()
        Register.objects.filter(pk=register.pk).update(visaed_seq=visaed, acts_after_visa=acts)


class Migration(migrations.Migration):
    dependencies = [
        ("registers", "0005_entry_txid_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="register",
            name="acts_after_visa",
            field=models.PositiveIntegerField(
                db_default=0, default=0, verbose_name="actes non soumis au visa après le dernier visé"
            ),
        ),
        migrations.AddField(
            model_name="register",
            name="visaed_seq",
            field=models.PositiveBigIntegerField(db_default=0, default=0, verbose_name="visé jusqu'au n°"),
        ),
        # Elidable: it only marks registers that existed before it, which a new database has not.
        migrations.RunPython(mark_visas, migrations.RunPython.noop, elidable=True),
    ]
