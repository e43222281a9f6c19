"""An establishment's settings: its own values over the jurisdiction's defaults."""

from ledgers.core.models import Establishment


def test_a_setting_of_several_keys_is_overridden_key_by_key():
    est = Establishment(code="x", name="x", jurisdiction="MC", options={"SET-05": {"issue_lead_minutes": 30}})
    kept = {"scj_notice_minutes": 1440, "issue_lead_minutes": 30, "destruction_period_days": 30}
    assert est.setting("SET-05") == kept
    est.options = {"WHEEL-09": {"max_share_percent": None}}  # a key set to None switches its check off
    assert est.setting("WHEEL-09") == {"max_consecutive": 2, "max_share_percent": None, "min_turns": 4}


def test_a_plain_setting_is_replaced_and_an_unset_one_is_the_default():
    est = Establishment(code="x", name="x", jurisdiction="MC", options={"SET-20": 2, "SET-23": "20000.00"})
    assert est.setting("SET-20") == 2 and est.setting("SET-23") == "20000.00"
    assert est.setting("SET-13") == "any_table" and est.setting("SET-25") is None
