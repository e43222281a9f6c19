from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("slots", "0001_initial")]

    operations = [
        AppendOnly("HistoricalSocle"),
        AppendOnly("HistoricalMachine"),
        AppendOnly("HistoricalMeter"),
        AppendOnly("HistoricalReleve"),
        AppendOnly("HistoricalIntervention"),
        AppendOnly("HistoricalStaffApproval"),
        AppendOnly("TechnicalSheet"),
        AppendOnly("MachineMove"),
        AppendOnly("RamClear"),
        AppendOnly("MeterReading"),
        AppendOnly("BoxExchange"),
        AppendOnly("DropCount"),
        AppendOnly("DailyTransmittal"),
    ]
