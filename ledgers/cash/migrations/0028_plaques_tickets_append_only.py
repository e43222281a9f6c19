from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0027_plaques_tickets")]

    operations = [AppendOnly("ChipCensus"), AppendOnly("CardTableNumber"), AppendOnly("TicketStamp"),
                  AppendOnly("LevyMachine")]
