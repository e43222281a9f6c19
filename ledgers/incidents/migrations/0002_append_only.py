from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("incidents", "0001_initial")]

    operations = [AppendOnly("HistoricalIncident"), AppendOnly("IncidentSubject"), AppendOnly("IncidentNotice")]
