from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0023_box_holders")]

    operations = [AppendOnly("BoxHolderDesignation")]
