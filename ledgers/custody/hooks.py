"""What the custody app wires into core's extension points: a table-partie closes only once every
item issued to it is back."""

from ledgers.core.hooks import on_table_closing

from .services import check_all_returned

on_table_closing(check_all_returned)
