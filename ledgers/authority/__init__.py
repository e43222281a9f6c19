"""The authorities' registers and records (issue 11), and the status of every row issue 11 names.

Each row is implemented where named (tests named after the ID under ``tests/``), ruled out with
the catalogue's reason, or left open (say so, never silently).

Staffing, seats and limits (``ledgers/tables``: rules as data in ``rules.py``, services, hooks)
- GAME-02, 10, 13, 15, 17, 19, 21, 22, 27, 31, 36, 42 staffing: ``tables/rules.py`` STAFFING,
  refused at opening by ``tables/hooks.py`` (GAME-10 and GAME-42 footmen: flags in
  ``tables/selectors.exceptions``). GAME-31's banker: ``authority`` ApprovedBanker (register of
  approved bankers: identity, approval date, approving officer; withdrawal), named at a banque à
  tout va table-partie by ``tables/services.banker_name``, which refuses one not approved on the
  séance's date (GAME-31); a table opened without one is flagged (BP, ``tables/selectors.exceptions``).
- GAME-03, 06, 16, 18, 32, 34, 36 seats: ``rules.SEATS`` (GAME-03: the marked spots, SET-11).
- GAME-08, 18, 25, 28, 33, 35, 37, 38, 41 limits: ``rules.LIMITS`` checked by
  ``tables/services.table_limits_set``; GAME-26 players at opening: ``hooks.enough_players_seated``.
- GAME-30: two séances a day, ``tables/hooks.two_seances_a_day``; its new sixain per séance is the
  cards' allocation (``cards/deck_rules.py``; "new" not readable from numbering, AMB-05).
- GAME-11, GAME-24: ruled out in ``tables/rules.py`` (the catalogue fixes no check: signage; the
  refait premium is a table receipt counted with the result, COUNT-10).
- GAME-01, 05, 09, 12, 14, 23, 26, 32, 34, 39, 40 (decks): ``cards/deck_rules.py``.
- GAME-04 Split Aces progressive (MC): ``authority`` ProgressiveConfig (versions, SET-22 parameters,
  effective date, approving officer; refused without author or date), ProgressiveReading (séance
  opening and closing; the closing amount not explained by stakes × percentage and the payouts
  is flagged, BP, on the page and the dashboard), ProgressivePayout (table, time, amount, winner).
- GAME-29 (MC): ``tables`` ClosingExtension (table-partie, new end time at most twelve hours past
  the closing time, Direction des Jeux officer, chemin de fer only); a table-partie closed after the
  séance's closing time with no extension reaching its end is flagged (``tables/selectors.exceptions``,
  tables dashboard). The closing times are the house's (000 art. 11.10: "fixée par la maison de
  jeux"), so SET-25 has no default: ``Establishment.options["SET-25"] = {"closing": {period:
  ["HH:MM", days after the date]}}``; without it nothing is flagged.
- GAME-07, REG-19 house rules: ``authority`` HouseRulesVersion, TableOptionChange (services, pages).
- GAME-20, REG-18 complex called bets: ``authority`` CalledBet, flag on the dashboard.

Authorisations (AUTH-*)
- AUTH-01 declarations: ``authority`` Declaration (15 days, three recipients); the gate: a FR
  table's minimum stake changed from its previous table-partie's is refused without a 6°
  declaration implemented since (``tables/services._check_declared_minimum``; the roue's minimum
  raised at opening is GAME-38's own option). Not gated, because the code has no such operation
  as a service: the table mix, the opening hours (SET-25) and the 7° tournament tables.
- AUTH-02 follow-up flag: ``selectors.declarations_without_follow_up`` on the dashboard.
- AUTH-03 figures at any date: ``authority/authorisation.py`` and its page (from the audited
  history; the number of tables *requested* is not recorded, only those installed).
- AUTH-04: ``tables/services._check_limits`` against SET-08.
- AUTH-05: the GAME-25 agreement and GAME-28 notification references (``tables/rules.py``).
- AUTH-06 approvals and notices: ``core/approvals.py``, custody and equipment approvals, page.

Registers (REG-*)
- REG-02: the MC dice intake register coté et paraphé by the Commissaire only, refused citing
  REG-02 (``custody/registers.PRISE_EN_CHARGE``, ``RegisterKind.paraph_requirement_for``).
- REG-21 printed volumes, DUPLICATA, paraphe: ``registers/printing`` (services, API, volumes page).
- REG-22 regulators' access and log: ``authority/access.py``, middleware, page.
- REG-23 rules displays, SET-32 checklist (FR): ``authority`` RulesDisplay (item, date posted,
  checked by; register "affichages réglementaires"), the items per game, BBJ table and machine as
  data in ``authority/displays.py`` (art. 35 A and C 7° ter c–e texts, the rake rate COUNT-20, the
  BBJ increment COUNT-45, the slot rules, stake and payouts). Refused with REG-23 and the item's
  article: a FR table opening (``tables/hooks.displays_posted``), a BBJ starting
  (``cash/services.bad_beat_activate``), a machine going in service (``slots`` commissioning).
  SLOT-29: the three art. 68-11 devices are items of the machine's checklist, refused (SLOT-29)
  while missing. Not done: the SLOT-29 flag of door-open signals without an intervention (SLOT-53).
- REG-24 destruction minutes with the prior SCJ notice: the OUT entries of
  ``custody/services.destruction_complete`` (refusals CARD-11 / DICE-07).
- REG-25 séance closing: ``core/seances.py`` and the séance page, hooks per app.
- REG-26 who cotes and paraphs the art. 69 forms: SET-26 ``by_form``, ``RegisterKind``.
- REG-28 done (level AMB-54: the signature of the conventions, section 1.4: named user, role,
  time, hash of the signed content, re-authentication): traceability is the REG-20 hash chain of
  every register, and the art. 69 forms kept here (modèles 10, 10 bis, 11, 11 quater, 12, 13) and
  modèle 29 are register kinds. Each modèle 29 entry is signed by its writer (password again,
  ``ReauthMixin`` in the pages, ``password`` in the API) and visaed by a comité member, another
  person, who re-authenticates too (``core/countersign``); both signatures are in the entry's
  payload, which its hash binds. The art. 69 certifications and visas (modèle 10 count, modèle 12
  daily visas, modèle 10 bis visa, modèle 11 quater certification) re-authenticate in the pages
  and in the API (``cash/api/serializers.Signature``). A qualified (eIDAS) signature is not built:
  AMB-54 leaves its level to confirm, and the default it names is this one.
- REG-43 retention and season archives: ``retention.py``, ``archive.py``, docs/verify_export.py.
- REG-44, REG-45 police registers: ``authority`` Observation, LiaisonQuestion.
"""
