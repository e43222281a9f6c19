from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("slots", "0010_statement_35")]

    operations = [AppendOnly("MonthlyStatement")]
