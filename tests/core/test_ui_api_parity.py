"""Every act the pages offer is reachable through the API: each page that takes a POST (found in
the URL confs) is declared here with the API route that does the same act, or as a page that is not
an act of the registers (sign-in, preferences). A page with no declared route fails the test, and
so does a declared route that does not exist or takes no POST."""

from django.urls import URLPattern, URLResolver, get_resolver

# Pages that are not acts on the registers: the session and the user's preferences, and the rake
# calculator (a GET form that records nothing).
NOT_ACTS = {
    "login": "sign-in",
    "logout": "sign-out",
    "profile": "the user's own preferences",
    "establishment-switch": "the establishment the session works in",
    "cash:rake": "a calculator, read with GET",
}

# Acts of the pages the API does not offer yet. The list only shrinks: an act that gains its route
# moves to API_ROUTE_OF (the test fails while it stays here).
WITHOUT_ROUTE = {
    "keys:inventory",
    "cash:fix_bank",
    "cash:centralise",
}

# Page (URL name) → the API route (URL name) of the same act.
API_ROUTE_OF = {
    "authority:answer": "authority-answer",
    "authority:archives": "authority-archives",
    "authority:banker_withdraw": "authority-banker-withdraw",
    "authority:bankers": "authority-bankers",
    "authority:called_bet_visa": "authority-called-bet-visa",
    "authority:called_bets": "authority-called-bets",
    "authority:declaration_follow_up": "authority-declaration-follow-up",
    "authority:declarations": "authority-declarations",
    "authority:displays": "authority-displays",
    "authority:follow_up": "authority-follow-up",
    "authority:house_rules": "authority-house-rules",
    "authority:observation_create": "authority-observations",
    "authority:progressive_payout": "authority-split-aces-payouts",
    "authority:progressive_reading": "authority-split-aces-readings",
    "authority:purge": "authority-purge",
    "authority:question_create": "authority-liaison",
    "authority:split_aces": "authority-split-aces-configs",
    "authority:table_option": "authority-table-options",
    "cards:anomaly": "cards-api-anomalies",
    "cards:depot-day": "cards-api-depot-days",
    "cards:designate": "cards-api-replacement-sixains",
    "cards:destruction-complete": "cards-api-destruction-complete",
    "cards:destruction-notify": "cards-api-destruction-notify",
    "cards:destruction-plan": "cards-api-destruction-plan",
    "cards:exchange": "cards-api-exchange-create",
    "cards:first-control": "cards-api-first-controls",
    "cards:issue": "cards-api-issues",
    "cards:order-create": "cards-api-order-create",
    "cards:order-send": "cards-api-order-send",
    "cards:order-visa": "cards-api-order-visa",
    "cards:pae-confirm": "cards-api-pae-confirmations",
    "cards:pae-prepare": "cards-api-pae-preparations",
    "cards:post-control": "cards-api-post-controls",
    "cards:receive": "cards-api-receipts",
    "cards:reconcile": "cards-api-reconcile",
    "cards:reshuffle": "cards-api-reshuffles",
    "cards:return": "cards-api-returns",
    "cards:supplier-create": "cards-api-suppliers",
    "cards:table-control": "cards-api-table-controls",
    "cards:transfer": "cards-api-transfers",
    "cards:unseal": "cards-api-unsealings",
    "cards:verify": "cards-api-verification-create",
    "cards:withdraw": "cards-api-withdrawals",
    "cash:baccara_bank": "cash-baccara-bank",
    "cash:bad_beat": "cash-bad-beat",
    "cash:banker": "cash-banker-segment",
    "cash:bbj_breakdown": "cash-bbj-breakdown",
    "cash:bbj_config": "cash-bbj-config",
    "cash:bbj_final_stop": "cash-bbj-final-stop",
    "cash:bbj_log": "cash-bbj-log",
    "cash:bbj_restore": "cash-bbj-restore",
    "cash:bbj_resume": "cash-bbj-resume",
    "cash:bbj_suspend": "cash-bbj-suspend",
    "cash:bbj_win": "cash-bbj-win",
    "cash:book_open": "cash-slip-book",
    "cash:box_holder": "cash-box-holder",
    "cash:cagnotte_compute": "cash-cagnotte-compute",
    "cash:cagnotte_count": "cash-cagnotte-count",
    "cash:cercle_certify": "cash-cercle-certify",
    "cash:cercle_day": "cash-cercle-day",
    "cash:certify": "cash-count-certify",
    "cash:changeur_fix": "cash-changeur-fix",
    "cash:changeur_float": "cash-changeur-float",
    "cash:chip_allocate": "cash-chip-allocate",
    "cash:chip_series": "cash-chip-series",
    "cash:control": "cash-control-close",
    "cash:control_visa": "cash-control-visa",
    "cash:count": "cash-count",
    "cash:device_visa": "cash-electronic-visa",
    "cash:devices": "cash-electronic-device",
    "cash:float": "cash-float",
    "cash:levy_machine": "cash-levy-machine",
    "cash:levy_month": "cash-levy-month",
    "cash:machine_history": "cash-machine-history",
    "cash:meter_statement": "cash-electronic-statement",
    "cash:orphan": "cash-orphan",
    "cash:plaques": "cash-chip-census",
    "cash:pots": "cash-pot-rake",
    "cash:restitution": "cash-orphan-restitution",
    "cash:sfe_advance": "cash-sfe-advance",
    "cash:slip_serve": "cash-slip-serve",
    "cash:slip_void": "cash-slip-void",
    "cash:slip_write": "cash-slip",
    "cash:station_result": "cash-station-result",
    "cash:table_cagnotte": "cash-table-cagnotte",
    "cash:ticket_book": "cash-ticket-book",
    "cash:ticket_stamp": "cash-ticket-stamp",
    "cash:tickets": "cash-card-table-number",
    "dice:allocate": "dice-allocate",
    "dice:day_close": "dice-day-close",
    "dice:destruction_complete": "dice-destruction-complete",
    "dice:destruction_notify": "dice-destruction-notify",
    "dice:destruction_plan": "dice-destruction-plan",
    "dice:end_check": "dice-end-check",
    "dice:order_create": "dice-order-create",
    "dice:order_send": "dice-order-send",
    "dice:order_visa": "dice-order-visa",
    "dice:pairs_cap": "dice-pairs-cap",
    "dice:prepare": "seance-tables",
    "dice:receive": "dice-receive",
    "dice:session_close": "table-session-close",
    "dice:session_open": "table-session-open",
    "dice:supplier_create": "dice-supplier-create",
    "dice:swap": "dice-swap-new",
    "dice:transfer": "dice-transfer",
    "dice:verification": "dice-verification",
    "dice:withdraw": "dice-withdraw",
    "equipment:destruction_complete": "equipment-api:destruction-complete",
    "equipment:destruction_notify": "equipment-api:destruction-notify",
    "equipment:destruction_plan": "equipment-api:destruction-plan",
    "equipment:launch_roster": "equipment-api:launch-roster-set",
    "equipment:launch_turn": "equipment-api:launch-turn-record",
    "equipment:lid_lock": "equipment-api:lid-lock",
    "equipment:model_create": "equipment-api:model-register",
    "equipment:shoe_allocate": "equipment-api:shoe-allocate",
    "equipment:shoe_receive": "equipment-api:shoe-receive",
    "equipment:shoe_return": "equipment-api:shoe-return",
    "equipment:shoe_update": "equipment-api:shoe-update",
    "equipment:shoe_withdraw": "equipment-api:shoe-withdraw",
    "equipment:shuffler_commission": "equipment-api:shuffler-commission",
    "equipment:shuffler_create": "equipment-api:shuffler-register",
    "equipment:shuffler_malfunction": "equipment-api:shuffler-malfunction",
    "equipment:shuffler_mount": "equipment-api:shuffler-mount",
    "equipment:shuffler_pause": "equipment-api:shuffler-use-pause",
    "equipment:shuffler_return_to_service": "equipment-api:shuffler-return-to-service",
    "equipment:shuffler_unmount": "equipment-api:shuffler-unmount",
    "equipment:shuffler_use_end": "equipment-api:shuffler-use-end",
    "equipment:shuffler_use_start": "equipment-api:shuffler-use-start",
    "equipment:socle_create": "equipment-api:socle-create",
    "equipment:wheel_check": "equipment-api:wheel-check-record",
    "equipment:wheel_commission": "equipment-api:wheel-commission",
    "equipment:wheel_create": "equipment-api:wheel-register",
    "equipment:wheel_install": "equipment-api:wheel-install",
    "incidents:close": "incidents-api-close",
    "incidents:decide": "incidents-api-decide",
    "incidents:detail": "incidents-api-notify",
    "keys:create": "keys-create",
    "keys:issue": "keys-issue",
    "keys:return": "keys-return",
    "keys:surrender": "keys-surrender",
    "notifications:detail": "notice-acknowledge",
    "registers:visa": "register-visas",
    "registers:volumes": "api-volume-paraphe",
    "seance-close": "seance-close",
    "seance-prepare": "seance-tables",
    "seance-table-close": "table-session-close",
    "seance-table-open": "table-session-open",
    "seances": "seance-list",
    "registers:create": "register-create",
    "registers:open": "register-open",
    "registers:record": "register-record",
    "registers:close": "register-close",
    "registers:correct": "entry-correct",
    "slots:approval": "slots-approval",
    "slots:assignment_close": "slots-assignment-close",
    "slots:avance": "slots-avance",
    "slots:box": "slots-box",
    "slots:carnet_count": "slots-carnet-count",
    "slots:carnet_payment": "slots-carnet-payment",
    "slots:carnet_tickets": "slots-carnet-tickets",
    "slots:change": "slots-change",
    "slots:change_assign": "slots-change-assign",
    "slots:change_point": "slots-change-point",
    "slots:common_desk": "slots-common-desk",
    "slots:count": "slots-count",
    "slots:count_close": "slots-count-close",
    "slots:count_line": "slots-count-line",
    "slots:count_open": "slots-count-open",
    "slots:counterfeit": "slots-counterfeit",
    "slots:counterfeit_destroy": "slots-counterfeit-destroy",
    "slots:dispute": "slots-dispute",
    "slots:encaisse_justify": "slots-encaisse-justify",
    "slots:encaisse_restore": "slots-encaisse-restore",
    "slots:events_import": "slots-events-import",
    "slots:files_copy": "slots-files-copy",
    "slots:hopper_lid": "slots-hopper-lid",
    "slots:import": "slots-readings",
    "slots:incident_report": "slots-incident-report",
    "slots:intervention_close": "slots-intervention-close",
    "slots:intervention_open": "slots-intervention-open",
    "slots:jackpot": "slots-jackpot",
    "slots:jackpot_threshold": "slots-jackpot-threshold",
    "slots:jpm_connect": "slots-jpm-connect",
    "slots:jpm_reading": "slots-jpm-reading",
    "slots:jpm_restart": "slots-jpm-restart",
    "slots:jpm_technical": "slots-jpm-technical",
    "slots:jpm_transmission": "slots-jpm-transmission",
    "slots:jpm_win": "slots-jpm-win",
    "slots:jpm_withdraw": "slots-jpm-withdraw",
    "slots:machine_register": "slots-machine-register",
    "slots:meter_statement": "slots-meter-statement",
    "slots:move": "slots-move",
    "slots:orphan": "slots-orphan",
    "slots:progressive_create": "slots-progressive-create",
    "slots:progressive_reading": "slots-progressive-reading",
    "slots:progressive_recover": "slots-progressive-recover",
    "slots:progressive_stop": "slots-progressive-stop",
    "slots:ram_clear": "slots-ram-clear",
    "slots:reconciliation": "slots-reconciliation",
    "slots:releve_close": "slots-releve-close",
    "slots:releve_open": "slots-releve-open",
    "slots:sfm_visit": "slots-sfm-visit",
    "slots:sheet": "slots-sheet",
    "slots:socle_create": "slots-socle-create",
    "slots:socle_withdraw": "slots-socle-withdraw",
    "slots:staffing": "slots-staffing",
    "slots:statement": "slots-statement",
    "slots:ticket_redeem": "slots-ticket-redeem",
    "slots:tickets_expire": "slots-tickets-expire",
    "slots:tickets_import": "slots-tickets-import",
    "slots:top_up": "slots-top-up",
    "slots:transmittal": "slots-transmittal",
    "slots:variance_threshold": "slots-variance-threshold",
    "tables:assign": "table-staff-list",
    "tables:banker": "table-bankers-list",
    "tables:extension": "table-extensions-list",
    "tables:limits": "table-limits-list",
    "tables:relieve": "table-staff-relieve",
}


def _walk(patterns, prefix="", namespace=None):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name
            yield prefix + str(pattern.pattern), name, pattern.callback


def _takes_post(callback) -> bool:
    actions = getattr(callback, "actions", None)
    if actions is not None:  # a viewset route: the methods its router mapped
        return "post" in actions
    view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    return view is not None and hasattr(view, "post")


def _routes() -> tuple[set[str], set[str]]:
    """(names of the pages that take a POST, names of the API routes that take a POST)."""
    pages, api = set(), set()
    for path, name, callback in _walk(get_resolver().url_patterns):
        if path.startswith("admin/") or not _takes_post(callback):
            continue
        (api if path.startswith("api/") else pages).add(name)
    return pages, api


def test_every_act_of_the_pages_has_its_api_route():
    pages, api = _routes()
    undeclared = sorted(pages - set(API_ROUTE_OF) - set(NOT_ACTS) - WITHOUT_ROUTE)
    assert not undeclared, f"pages whose act has no declared API route: {undeclared}"
    broken = sorted(f"{page} → {route}" for page, route in API_ROUTE_OF.items() if route not in api)
    assert not broken, f"declared API routes that do not exist or take no POST: {broken}"
    stale = sorted((set(API_ROUTE_OF) | set(NOT_ACTS) | WITHOUT_ROUTE) - pages)
    assert not stale, f"declared pages that no longer take a POST: {stale}"
    assert not set(API_ROUTE_OF) & WITHOUT_ROUTE


def test_the_acts_without_a_route_are_known():
    """The acts the API still lacks are exactly those listed: one gaining a route leaves the list."""
    pages, _api = _routes()
    assert WITHOUT_ROUTE <= pages
    assert len(WITHOUT_ROUTE) <= 3
