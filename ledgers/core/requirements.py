"""What the code does with the catalogue where its citations cannot say it: the rows ruled out
(with the article that makes them impossible or out of scope), the rows answered by a report, the
decisions taken where the text is silent, the settings held other than through
``Establishment.setting``, and what the code decided on each ambiguity of the catalogue. The status tables
of docs/requirements/ are generated from this file and from the code (``ledgers.core.status``)."""

from typing import NamedTuple


class Ruling(NamedTuple):
    article: str
    reason: str


class Decided(NamedTuple):
    """What the code does where the texts are ambiguous, and the modules that do it."""

    text: str
    where: tuple[str, ...]


# Whole rows the product does not act on. A row only partly out keeps its status and says what is
# out in DECISIONS.
RULED_OUT: dict[str, Ruling] = {
    "GAME-11": Ruling(
        "AM 2006-371 art. 1",
        "How Black Jack One Deck is dealt (3 boxes a player, hands per deck by boxes played, no entry "
        "mid-deck, 6 for 5) is play at the table: the registers keep no hand-by-hand record, the "
        "catalogue's record is the table's signage and it sets no check (4 boxes unstated, AMB-19).",
    ),
    "SLOT-27": Ruling(
        "Arrêté du 30 décembre 2014 art. 35 (68-17); AMB-30",
        "Art. 68-17 is not in the corpus: the check its threshold (50 % of the authorised fleet, "
        "SET-30) feeds is unknown, so there is nothing to compute it for until the article is supplied.",
    ),
}

# Rows whose check is a report the system computes at any date, not a refusal nor a flag: the
# function that computes it (module.function). The status test fails when it is gone.
REPORTED: dict[str, str] = {
    "AUTH-03": "ledgers.authority.authorisation.authorisation_figures",
    # The stock at any time, per depot and category, for the SCJ's verification without notice.
    "CARD-06": "ledgers.cards.selectors.stock_statement",
    "DICE-05": "ledgers.dice.selectors.stock_statement",
    "SLOT-28": "ledgers.authority.authorisation.authorisation_figures",
}

# Rows whose check holds by construction or through another row's check, that no string of theirs
# cites: the function every such act goes through, which makes the violation impossible
# ("module.function"), or the row whose refusal enforces it. The status test fails when the
# function is gone or that row is not itself enforced.
ENFORCED_BY: dict[str, str] = {
    # The carnet modèle 19 takes no entry before the police's opening act, its visa (REG-01).
    "CARD-27": "REG-01",
    # The sabot allocation is written by the act itself in the table's carnet d'avances (punto banco,
    # blackjack) or in column 3 of its modèle 11 (baccara), in the allocation's transaction.
    "SHOE-06": "ledgers.cash.services.sabots.shoe_allocation_write",
    "SHOE-13": "ledgers.cash.services.sabots.shoe_allocation_write",
    "COUNT-16": "ledgers.cash.services.sabots.shoe_allocation_write",
    # The amount retained is computed, never typed: the higher of the count and the statement,
    # with the surplus keyed in or the shortfall borne by the cash desk.
    "COUNT-23": "ledgers.cash.services.bbj.bad_beat_record",
    # Every line of the dice-in-service register carries date, séance, table and time.
    "DICE-22": "ledgers.dice.services.common._service_entry",
    # A meter that falls without a rollover at its capacity opens an INC-12 incident at the reading.
    "SLOT-32": "ledgers.slots.services.releves.releve_readings_import",
    # Every slot act (move, intervention, reset, SFM visit) writes its modèle 26 line through the one
    # writer, in the act's transaction.
    "SLOT-51": "ledgers.slots.services.common._append",
}

# Decisions taken where the text is silent, and parts of a row left out with their reason; keyed
# by the row or setting they bear on.
DECISIONS: dict[str, str] = {
    # Cards and dice
    "CARD-10": "Destruction periodicity: SET-05 destruction_period_days (30 by default, the text says "
    "only 'depending on activity'); a depot whose last destruction is older is flagged.",
    "CARD-11": "The notice to the SCJ is recorded by the system when it is given (never typed in); the "
    "destruction is refused before the time planned when the SCJ was told, and until SET-05 "
    "scj_notice_minutes have passed since the notice: a day by default, never below an hour, time for "
    "an agent to attend (AMB-37: the text sets no lead time).",
    "DICE-07": "As CARD-11: notice timestamped by the system, destruction refused before the planned time "
    "the SCJ was told of and before SET-05 scj_notice_minutes (a day by default, an hour at least, AMB-37).",
    "SLOT-35": "The comité member who controls a payment signs it at the terminal with his own password "
    "(and authenticator code), through the countersignature every other co-signed act uses.",
    "CARD-02": "AMB-05: a sixain without a manufacturer number gets an internal tracking ID and is flagged.",
    "CARD-12": "AMB-03: ready-to-use decks default to the restrictive reading (punto banco in super "
    "privé salons only, SET-04) until compliance confirms the consolidated text.",
    "DICE-05": "AMB-08: a supplementary dice allocation during the séance is allowed and flagged "
    "(SET-12 supplementary = flag); AMB-09: 'previous séance' = of any table (SET-13).",
    "DICE-18": "AMB-09: 'previous séance' = of any table (SET-13), the stricter reading.",
    "SHOE-09": "AMB-49: the baccara and blackjack sabot allocated by a comité member is allowed and "
    "flagged; blackjack's allocation is written in the carnet d'avances as for punto banco.",
    # Tables
    "GAME-03": "Recorded (000 art. 5.1): the text fixes no maximum, so nothing is refused; the seats, the "
    "spots marked on the layout, are written with the limits in the table-parties register.",
    "GAME-24": "The insured stakes are taken at the table and only the premiums' total is entered at the "
    "count (COUNT-10): refused are premiums with no SET-23 threshold fixed, and premiums below 1 % of it.",
    "AUTH-05": "Recorded (000 art. 10.2, 11.9): the references are required by GAME-25 and GAME-28 and "
    "written with the limits in the table-parties register.",
    "GAME-29": "The closing times are the house's (000 art. 11.10): SET-25 has no default and without "
    "it no late closing is flagged.",
    "WHEEL-09": "The catalogue leaves the specialisation threshold to a setting without a SET number: "
    "flagged above 2 launches in a row or 50 % of the partie's turns once it has 4 (establishment "
    "option WHEEL-09).",
    "AUTH-01": "Gated: a FR gaming table is set up (added, given another game, put back in service) only "
    "under the arrêté d'autorisation in force (AUTH-03), within its total and its tables per game; beyond "
    "them, a game it does not name with a 3° or 2° declaration implemented by that day, more tables of a "
    "game with a 6° declaration implemented after the arrêté took effect, more poker tables with a 7° "
    "declaration whose dates cover the day, such a tournament table opening only on a séance within those "
    "dates and counted apart from the total. A FR table's minimum stake changed, and a FR table opened "
    "under opening-hour limits (SET-25 closing times) changed since the house last played on an earlier "
    "day, without a 6° declaration implemented since, are refused. A declaration's details are free text: "
    "which game or how many tables it declares is not read from it, so an implemented declaration of the "
    "operation allows the act; the arrêté's tables per game add up to its total at most.",
    "AUTH-03": "The arrêté d'autorisation is recorded by the directeur responsable in the register of gaming "
    "authorisations (an amendment is a new arrêté); a FR table set up with none in force is refused. The "
    "number of tables requested (003 art. 4, 5) is the applicant's figure in the dossier sent to the "
    "Minister, not a fact of the establishment: the dossier figures are those installed, at any date, "
    "beside those the arrêté then in force authorises.",
    "AUTH-04": "The authorised minimum is the one the arrêté in force on the séance's day fixes for the "
    "game; where it fixes none, the establishment's SET-08.",
    "AUTH-06": "Approvals in one overview (core/approvals.py), each gating its act; the card and dice "
    "makers' approvals are lines of the carnet of orders, which the authority visas (CARD-32, DICE-15). "
    "The notices to the "
    "Minister of the Interior, the SCCJ and the police in one FR register (incidents AUTHORITY_NOTICES), "
    "a line per notice written by the act that gives it: BBJ final stop, progressive and JPM stops and "
    "withdrawal, JPM figures to the SCCJ, machine moves, the police informed of an incident, the prior "
    "declarations (one line per recipient). The text names nobody to cote and paraph it: the "
    "directeur responsable (SET-26).",
    # Cash
    "COUNT-09": "The sum the cagnotte must hold is computed only from the tickets detached per book, and "
    "the cagnotte is counted only after it (COUNT-08). Ticket denominations able to represent any levy "
    "amount (BP) is not checked: the text sets no levy unit.",
    "COUNT-16": "Recorded (002 art. 57-13): the sabot allocation is written in the table's carnet "
    "d'avances by the allocation itself, in its transaction; the sabot is required before a punto banco "
    "table opens (SHOE-12).",
    "COUNT-14": "The special rules of arts. 47 and 48 are out: base texts not in the corpus (AMB-30).",
    "COUNT-17": "A cagnotte is put into service with its table's number (table numbers are unique, so "
    "never shared). The table's levies go into it: the poker table does not open for play, no pot's "
    "rake is recorded and no cagnotte computed while the table has none in service; the levies taken "
    "through ticket books are seen only at that computation.",
    "COUNT-42": "As COUNT-17 for the baccara tables (chemin de fer, à deux tableaux; AMB-57: every cercle "
    "table): the cagnotte is put into service with its table's number, and the table does not open for play "
    "nor is its cagnotte computed while it has none. Écarté is not in the game catalogue.",
    "COUNT-18": "The rake of each pot is recorded at the table (relevé des retenues par pot, the record "
    "art. 56-1 has an approved machine keep: time, pot, rake, gain paid): the buy-in is the partie's, given "
    "with its first pot; the rake taken is the rake due unless the croupier says otherwise, and one that "
    "differs from it, above or below, is recorded and flagged (the text fixes the rate, not a bound "
    "only); the cagnotte's count that differs from the sum of the pots' rakes is flagged in modèle 11. "
    "Omaha poker 4 high (COUNT-19) is not in the game catalogue: its rate is computed, no table plays it.",
    "COUNT-22": "'Immédiatement' read as within COUNT-22 minutes after the end of the partie (30 by "
    "default, to confirm); a later entry is flagged.",
    "COUNT-24": "The displayed amount is checked per table: a BBJ shared by several tables would need "
    "one jackpot across them.",
    "COUNT-27": "Art. 37 fixes what the somme en banque holds; the record of a banker and his bank is "
    "what art. 58 and 71 put in modèle 11 (baccara à deux tableaux, COUNT-54), where banknotes are "
    "refused. No text has the bank of the other cercle games written anywhere (poker has no bank, "
    "57-2: the house takes a rake), so there is no recorded bank to check there; the change at the "
    "table goes through the changeur, whose ravitaillement bons refuse banknotes among the chips "
    "requested, and no foreign currency is changed at a table.",
    "COUNT-33": "The art. 53 exception is out: base text not in the corpus (AMB-30).",
    "COUNT-34": "The transport box checked against a register of boxes (BP) is out: no text keeps such a register.",
    "COUNT-36": "'Slowly enough to be followed' (art. 43) is a manner of counting the software cannot "
    "observe: the CCTV reference is required instead.",
    "COUNT-46": "The machine's link to the casino network (56-3-1) is a technical installation the "
    "approval covers: the approval reference is required, the link itself is not observable.",
    "COUNT-50": "A reversible table's new carnet (art. 70) holds by construction: a table's game is "
    "fixed at creation, another game is another table with its own carnet.",
    "COUNT-56": "AMB-54: the two daily visas are the re-authenticated signatures of section 1.4.",
    "COUNT-57": "The State, commune, EPCI and social levies' rates and abatements are tax law outside "
    "the corpus: modèle 13 carries the gross gaming product they are computed on.",
    # Slots
    "SLOT-10": "Recorded (000 art. 19.5): the drop type (cash box or conveyor) is written with the machine "
    "in the slot files; the text sets no check.",
    "SLOT-19": "'Un membre du personnel' is not limited to the casino where the orphan is found: a payee "
    "holding a role in any establishment the system keeps (the operator's other casinos) is refused.",
    "SLOT-28": "Reported: the machines in service on any day, from their audited history (the "
    "authorisation figures, AUTH-03); the row sets nothing to refuse.",
    "KEY-06": "The monitoring system's export names no login: the mechanic identified is the one whose "
    "intervention is open. A door opening with no intervention is SLOT-14's flag; one made while the "
    "machine's door key is held by another than that mechanic is flagged KEY-06.",
    "INC-05": "Recorded (000 art. 21.3): the customer who took the orphan and his exclusion are written "
    "on the orphan's line, with the time and who recorded it; the text sets no check.",
    "SLOT-08": "The Secrétariat Général's copy is flagged when older than 30 days (option SLOT-08, BP).",
    "SLOT-11": "Every difference between the counted drop and the meters is flagged; the texts fix no "
    "figure, so none is assumed: the Direction grades the differences with a threshold of its choice "
    "(option SLOT-11, presets or its own amount and/or percentage), none until it chooses.",
    "SLOT-33": "The police notice lead time before a planned move is the establishment option SLOT-33 "
    "(the text says 'préalablement' without a figure).",
    "SLOT-45": "Counterfeit coins destroyed only for ended financial years (option SLOT-45, 31 October by "
    "default, the end of the season); AMB-48: the comptable du Trésor named, to confirm.",
    "SLOT-44": "AMB-52: a ticket issued on day D expires at the end of day D + 8 (SET-37).",
    "SLOT-54": "AMB-52: '120 days of operation' counted in calendar days since the last SFM visit "
    "(SET-38): no calendar of opening days is kept, and calendar days flag no later than the text would.",
    "INC-16": "'Without delay': an urgent anomaly's police information later than the option INC-16 "
    "(60 minutes by default, to confirm) is flagged.",
    "SLOT-29": "The devices and displays are required before service (authority checklist); the flag of "
    "a door-open signal with no intervention record is the monitoring import's SLOT-53 flag.",
    "SLOT-34": "AMB-55: 'membre du comité spécialisé' read as the comité member the day's slot staffing "
    "assigns to the control of the games (SLOT-50), who countersigns at the terminal with his own "
    "password; any comité member on a day with no staffing written.",
    "KEY-17": "AMB-51: the upper-part opening rule applies to every casino, the employee alternative "
    "only to casinos with 75 machines or fewer (SET-43).",
    # Registers
    "INC-03": "Recorded (000 art. 1.3): the exchange is the CARD-16 record, written in the card events "
    "register; its refusals are CARD-16's.",
    "REG-03": "The annex ledger's lines are written by the transfers and the day closes (CARD-05, "
    "DICE-04); the text does not ask for it to be coté et paraphé: where SET-26 annex_ledger_paraphe asks "
    "for it (default off), a line is refused unless the Commissaire opened the volume.",
    "REG-06": "Recorded: the sections of modèle 19; a destruction without the police officer's presence "
    "and visa is refused under CARD-31 and DICE-19.",
    "REG-13": "Recorded: the ticket books' lines; their checks are COUNT-07's and COUNT-08's.",
    "REG-14": "Recorded: the slips' lines; their checks are COUNT-04's and COUNT-06's.",
    "REG-18": "Recorded: the written called bets with their visa (GAME-20), kept with the table-partie.",
    "REG-24": "Recorded: the destruction minutes; the prior notice is refused under CARD-11 and DICE-07.",
    "REG-32": "Recorded: the carnets de tickets' register; their checks are COUNT-38 to COUNT-40's.",
    "REG-33": "Recorded: the ravitaillement bons' lines; their checks are COUNT-29's.",
    "REG-36": "Recorded: modèle 16; its checks are COUNT-58's.",
    "REG-37": "Recorded: the jackpot registers; their checks are SLOT-35's and SLOT-36's.",
    "REG-40": "Recorded: modèle 28 S; its checks are SLOT-38 to SLOT-41's.",
    "REG-41": "Recorded: modèles 29, 31, 32 and 35; their checks are SLOT-43, SLOT-47, SLOT-55 and SLOT-56's.",
    "REG-42": "Recorded: the bons are numbered by the system, each from the last of its series, so the "
    "series has no gap by construction (a refused bon takes no number); their signatures are SLOT-35, "
    "SLOT-40, SLOT-42 and COUNT-48's.",
    "REG-28": "AMB-54: the electronic signature is the section 1.4 signature (named user, role, time, "
    "hash of the signed content, re-authentication) bound to the entry hash; a qualified (eIDAS) "
    "signature is not built until its level is confirmed.",
    "REG-25": "MC 'intervention sheets handed over': the last séance open that day is refused while the "
    "day's closed sheets are not in their envelope (SLOT-15); flagged only where the envelope cannot "
    "be made: an intervention still under way, or a sheet opened after the day's envelope.",
    "REG-27": "AMB-54: a correction is a new entry naming the one it corrects, which stays as written, "
    "with its reason and an approval in words by a SET-47 approver, printed in red.",
    "REG-43": "AMB-53: retention counted in seasons, the end computed per entry; never purged automatically.",
    "REG-44": "AMB-46: registre spécial d'observations printed as modèle 20 (SET-48).",
    # Settings
    "SET-04": "Default restrictive until the consolidated text is confirmed (AMB-03).",
    "SET-13": "Default 'any table' (AMB-09).",
    "SET-17": "Default: cap after rounding, min(round_up_0.50(rate × pot), cap) (AMB-24).",
    "SET-26": "Registers whose text names nobody to cote and paraph them: the directeur responsable "
    "(FR) or the Direction des Jeux (MC); MC annex ledger not paraphed, MC dice-in-service register "
    "paraphed (AMB-36).",
    "SET-42": "Read as the window the text sets before the act (AMB-50): 48 hours, 15 days by default; at least 1.",
    "SET-08": "Entered by the establishment's director (FR the directeur responsable, MC the directeur "
    "des jeux) on the settings page or through the API, as every setting the texts leave to the house "
    "(ledgers.core.establishment_settings); each change is a line of the main courante.",
    "SET-23": "No default: until the Direction des Jeux fixes the threshold, no refait premium is taken (GAME-24).",
    "SET-05": "MC minimum notice to the SCJ before a destruction: a day by default (the text sets none, "
    "AMB-37), never below an hour (SCJ_NOTICE_FLOOR_MINUTES); issue lead time 60 minutes; destruction "
    "periodicity 30 days (flag).",
}

# Settings the code holds in its structure rather than reading them per establishment.
SETTINGS_HELD: dict[str, str] = {
    "SET-01": "`Establishment.jurisdiction`, chosen per establishment; every rule reads it.",
    "SET-03": "Per game and jurisdiction in `ledgers.cards.deck_rules` (the texts fix each game's rule).",
    "SET-09": "Per game and jurisdiction in `ledgers.tables.rules.LIMITS`; the amounts per table-partie.",
    "SET-11": "Per game in `ledgers.tables.rules.SEATS`; MC blackjack: the table's marked spots (GAME-03).",
    "SET-18": "`slots.IdentityThreshold`, fixed by the Direction with its effective date (SLOT-16).",
    "SET-21": "Pay table A or B chosen per table-partie (`ledgers.tables.rules.LIMITS`, GAME-08).",
    "SET-22": "`authority.ProgressiveConfig` versions with their effective date (GAME-04).",
    "SET-24": "Per table-partie on the limits record (`banco_max`, `garage_from` with the notification, GAME-28).",
    "SET-27": "`ledgers.core.roles`: one role per title the texts name, per jurisdiction.",
    "SET-29": "`slots` common cash desk record with the police validation (`cashdesk.common_desk_enable`, SLOT-26).",
    "SET-30": "Unused: the article it feeds (68-17) is not in the corpus (SLOT-27 ruled out).",
    "SET-32": "The display checklist items as data in `ledgers.authority.displays` (REG-23).",
    "SET-33": "Approved sabot and shuffler models with their approval, `equipment` (SHOE-04, SHUF-01).",
    "SET-46": "Off: a cagnotte is counted only after its computation (`cash.services`); the art. 71 "
    "simultaneous route is not offered.",
    "SET-48": "`RegisterKind.form` of each register kind.",
    "SET-49": "`Profile.authority_names` per jurisdiction (`ledgers.core.jurisdictions`).",
}

# What the code does where the texts are ambiguous or contradict each other (the catalogue's
# AMB rows), and the modules that do it; the status test fails when one is missing.
AMBIGUITY_DECISIONS: dict[str, Decided] = {
    "AMB-01": Decided(
        "Séance ⊃ table-partie (TableSession, one per table and séance); the start-of-séance/partie card "
        "controls (CARD-15/36, CARD-22) are on_table_opening hooks run as each table-partie opens; the FR"
        " BBJ count is one per table-partie (COUNT-21), its displayed amount due before the séance closes"
        " (COUNT-24). The taille is not a record.",
        ("ledgers.core.models", "ledgers.cards.hooks", "ledgers.cash.services.bbj", "ledgers.cash.hooks"),
    ),
    "AMB-02": Decided(
        "SET-02 per jurisdiction in deck_rules: FR blackjack and punto banco take exactly 6 decks, 3 + 3 "
        "colours, one complete sixain with plain backs (GAME-05, GAME-14); MC blackjack defaults to 6 and"
        " punto banco to 8 or 6, changed by the Direction in options SET-02 (GAME-01, GAME-12). An issue "
        "not matching is refused.",
        ("ledgers.cards.deck_rules", "ledgers.cards.services.issue"),
    ),
    "AMB-03": Decided(
        "SET-04 default 'restrictive' (MC profile): a ready-to-use deck issued to any table other than a "
        "punto banco table in a super privé salon is refused (CARD-21) unless the establishment sets "
        "SET-04 to 'general'; the PAE preparation with its video reference is required either way "
        "(CARD-20, CARD-12).",
        ("ledgers.cards.services.issue", "ledgers.core.jurisdictions"),
    ),
    "AMB-04": Decided(
        "SET-03 is held per game and jurisdiction in deck_rules (not an establishment setting): where the"
        " rule is 'new' (MC Black Jack One Deck, banque à tout va; FR three-card poker, baccara à deux "
        "tableaux) a deck not new is refused at issue; 'perfect' and 'reuse' games refuse any unit not in"
        " perfect condition or incomplete (CARD-17/39).",
        ("ledgers.cards.deck_rules", "ledgers.cards.services.issue"),
    ),
    "AMB-05": Decided(
        "A sixain received as 'non numéroté' gets an internal tracking number (INT-date-n) and is flagged"
        " CARD-02 at receipt and in the stock's flags for as long as it is held; 'new' at banque à tout "
        "va is never inferred from numbering. The question to compliance is not tracked in the code.",
        ("ledgers.cards.services.receipt", "ledgers.cards.selectors"),
    ),
    "AMB-06": Decided(
        "FR runs the FR custody rows (CARD-24 to CARD-39): the card cabinet is the only depot, opened "
        "with its single key (KEY-11, SET-35 copies 1), police visas. The MC-only checks (CARD-14, "
        "CARD-16, CARD-18) apply in FR only when listed in the option cards_best_practice (empty by "
        "default), refusing as 'bonne pratique'.",
        ("ledgers.cards.services.common", "ledgers.cards.domains", "ledgers.custody.services.places"),
    ),
    "AMB-07": Decided(
        "MC: exactly 5 dice per table and séance, and any die allocated before (services > 0) is refused "
        "(DICE-08). FR: two pairs per séance, one in play and one in reserve; a die allocated at the "
        "previous séance (SET-13 scope) is refused (DICE-20), other reuse allowed.",
        ("ledgers.dice.services.allocation", "ledgers.dice.selectors"),
    ),
    "AMB-08": Decided(
        "MC SET-12 supplementary = 'flag' by default: a supplementary allocation on an open, already "
        "allocated table is allowed, signed by the SET-15 signatory (sous-directeur) and flagged DICE-08;"
        " set to 'refuse' it is refused. FR: one extra signed pair, only when the table has no usable "
        "reserve (DICE-21).",
        ("ledgers.dice.services.allocation", "ledgers.core.jurisdictions"),
    ),
    "AMB-09": Decided(
        "SET-13 default 'any_table' in both profiles: the dice allocated at any table of the "
        "establishment's previous séance are refused (DICE-20); 'same_table' limits it to that table's "
        "previous table-partie. Only the FR allocation reads it (MC refuses any used die anyway).",
        ("ledgers.dice.selectors", "ledgers.dice.services.allocation"),
    ),
    "AMB-10": Decided(
        "Per-jurisdiction workflow: MC allows destruction or neutralisation, needs an inspecteur's "
        "signature and the SCJ notice given SET-05 scj_notice_minutes before (1440 default, DICE-07); FR "
        "refuses neutralisation and needs a police officer who records the loaded/tampered check and "
        "visas modèle 19 in the same act (DICE-19).",
        ("ledgers.custody.services.destruction", "ledgers.dice.domains"),
    ),
    "AMB-11": Decided(
        "SET-15 per profile: MC the sous-directeur signs the allocation and the end check (DICE-10, "
        "DICE-11); FR the directeur responsable or a comité member signs the allocation and the end check"
        " with the chef de table as second signer (DICE-23, DICE-25). Micrometer, square and balancing "
        "caliper are required only under FR (DICE-24).",
        ("ledgers.dice.services.checks", "ledgers.dice.services.allocation", "ledgers.core.jurisdictions"),
    ),
    "AMB-12": Decided(
        "FR: an order needs a supplier with valid approval (DICE-15) and a modèle 21 carnet number; it is"
        " sent and received only once police-visaed (DICE-16); receipt is refused beyond SET-14 max_pairs"
        " (None by default, so no receipt until set, DICE-14). MC: no approval or cap; the SCJ may visa "
        "an order at any time.",
        ("ledgers.custody.services.suppliers", "ledgers.custody.services.intake", "ledgers.dice.services.receipt"),
    ),
    "AMB-13": Decided(
        "SET-26 per register kind and form: MC intake registers by the Commissaire; FR art. 69 forms by "
        "the Interior control officials (REG-26), change registers by the comptable du Trésor, modèle 19 "
        "by the police, art. 92/92-1 registers by the DCPJ chief; unnamed ones by the directeur "
        "responsable or Direction des Jeux. Another role is refused.",
        ("ledgers.registers.kinds", "ledgers.registers.services", "ledgers.core.jurisdictions"),
    ),
    "AMB-14": Decided(
        "Staff and authority roles read every register of their establishments at any time (REG-22 "
        "verifiers per jurisdiction in authority.access); regulators' reads and prints are logged. A visa"
        " is refused to a role outside the kind's or profile's visa roles (MC SCJ or Commissaire; FR "
        "police; carnets d'avances: Interior control officials).",
        ("ledgers.registers.selectors", "ledgers.registers.services", "ledgers.authority.access"),
    ),
    "AMB-15": Decided(
        "MC: the avance must equal the amount the Direction des Jeux fixed for the table (SET-06, no "
        "default); none fixed or another amount is refused (COUNT-01). FR: an avance below the art. 49 "
        "multiple (SET-07: the text's table, overridable, roulette anglaise, stud, hold'em, vingt-trois "
        "and bataille included) × the minimum stake is refused (COUNT-12).",
        ("ledgers.cash.services.floats", "ledgers.cash.selectors", "ledgers.cash.rules"),
    ),
    "AMB-16": Decided(
        "Two blind counts, then a third person certifies. FR: directeur responsable or comité member "
        "writes 'exact', one count must be a cashier's, table staff named (COUNT-15); the count room is "
        "refused without SET-44 police validation (None by default) and CCTV reference. MC: inspecteur, "
        "sous-directeur or directeur des jeux certifies; no cashier required.",
        ("ledgers.cash.services.counts",),
    ),
    "AMB-17": Decided(
        "FR only: on a contrepartie table-partie with no chef de table on duty, the directeur responsable"
        " or a comité member designates a gaming employee (chef de partie, employé responsable, croupier)"
        " who then receives the box (COUNT-13). MC: refused; the float is received by the chef de table "
        "only (COUNT-01). Other signatures have no substitute.",
        ("ledgers.cash.services.box_holders", "ledgers.cash.services.floats"),
    ),
    "AMB-18": Decided(
        "FR only: a sabot is allocated by the roles named (AMB-49) at an open partie, refused if its "
        "model lacks the Minister's approval or it is not in the modèle 19 inventory (SHOE-04 to "
        "SHOE-11); reuse at the same table within SET-20 séances (1) is flagged. MC: the cartier takes it"
        " out and returns it under the inspecteur (SHOE-01 to SHOE-03).",
        ("ledgers.equipment.services.shoes",),
    ),
    "AMB-19": Decided(
        "Not acted on: GAME-11 is ruled out, since Black Jack One Deck's hands per deck are play at the "
        "table, no register records hands and the catalogue sets no check; no signage check exists either"
        " and the 4-box value is left open.",
        ("ledgers.core.requirements",),
    ),
    "AMB-20": Decided(
        "Relief rules per game are held in code (tables.rules.RELIEF, not an establishment setting): "
        "relieving the dealer outside a break is flagged at MC Black Jack One Deck (GAME-10) and refused "
        "at FR ultimate hold'em (GAME-32) and three-card poker (GAME-34); other games have no relief "
        "rule.",
        ("ledgers.tables.rules", "ledgers.tables.services"),
    ),
    "AMB-21": Decided(
        "SET-11 per game in tables.rules.SEATS: seats above 7 at FR blackjack (GAME-06) or above 16 at FR"
        " punto banco (GAME-16) are refused. MC blackjack's marked spots are recorded with no maximum "
        "(GAME-03). MC 7/9-seat and FR 7-seat punto banco tables are not limits: those seat counts pick "
        "the small-table staffing (GAME-13, GAME-15).",
        ("ledgers.tables.rules", "ledgers.tables.services"),
    ),
    "AMB-22": Decided(
        "'La mise' is read as the table's minimum stake: a FR roue de la chance colour maximum above "
        "100/50/25/12/10/5 × the minimum set for the table-partie is refused (GAME-37). No compliance-"
        "confirmation flag is raised.",
        ("ledgers.tables.rules", "ledgers.tables.services"),
    ),
    "AMB-23": Decided(
        "Two distinct wheel kinds and games, never merged: MC grande_roue (exactly 54 segments "
        "1/1/2/4/7/15/24, WHEEL-05; pre-séance check by maintenance staff + inspecteur, WHEEL-06) and FR "
        "roue_chance (52 segments 24/12/8/4/2/1/1, WHEEL-07; check by a comité member + the croupier in "
        "its main courante, WHEEL-08).",
        ("ledgers.equipment.specs", "ledgers.equipment.models", "ledgers.core.games"),
    ),
    "AMB-24": Decided(
        "SET-17 default cap_last: rake = min(round_up_0.50(rate × pot), cap); round_last can be chosen. "
        "Caps apply literally, 'à partir de' read as ≥, no cap below 500 € (COUNT-18, COUNT-19). The non-"
        "monotonic bands are not flagged and 'pot' is not defined in configuration: it is the amount the "
        "croupier enters.",
        ("ledgers.cash.rules", "ledgers.cash.selectors", "ledgers.cash.services.rakes"),
    ),
    "AMB-25": Decided(
        "MC SET-16 is empty (no default) and is not a setting the director can change. Outside FR, the "
        "per-pot rake record is refused and the rake calculator answers 'no rate configured', so no MC "
        "poker rake is computed or checked.",
        ("ledgers.core.jurisdictions", "ledgers.cash.selectors", "ledgers.cash.services.rakes"),
    ),
    "AMB-26": Decided(
        "The BBJ count keeps both the cagnotte counted and the certified computer statement and retains "
        "max(counted, statement) (COUNT-23). A surplus is recorded as the croupier's additional retenue "
        "and a shortfall as borne by the cash desk; any difference opens an INC-10 incident.",
        ("ledgers.cash.services.bbj", "ledgers.cash.models.bbj"),
    ),
    "AMB-27": Decided(
        "No single typed entity: each meaning has its own model and rules. CagnotteCount is a cercle "
        "table-partie's ticket-based cagnotte (MC chemin de fer 5 % levy, FR modèle 11); TableCagnotte is"
        " a FR cercle table's numbered cagnotte, with per-pot poker rakes; BadBeatTable/BadBeatCount hold"
        " the FR BBJ cagnotte.",
        ("ledgers.cash.models.cagnottes", "ledgers.cash.models.bbj", "ledgers.cash.services.cagnottes"),
    ),
    "AMB-28": Decided(
        "Two separate settings. SET-18 is MC only: a JackpotThreshold the Direction fixes, with its "
        "effective date; a payment strictly above it needs an ID (SLOT-16), and setting one is refused "
        "under FR. SET-19 is FR only, with no default; once set, the automatic payment limit may not "
        "exceed it (SLOT-25, SLOT-54).",
        ("ledgers.slots.services.payments", "ledgers.slots.services.machines"),
    ),
    "AMB-29": Decided(
        "Each sabot or shuffler model stores its approval reference, issuer, date and end date. A "
        "shuffler whose model has no approval reference is not put into service (SHUF-01 MC, SHUF-11 FR),"
        " and an expired approval is refused (AUTH-06). The issuer is optional free text, shown as '—' "
        "when blank.",
        (
            "ledgers.equipment.services.approved_models",
            "ledgers.equipment.services.shufflers",
            "ledgers.equipment.models",
        ),
    ),
    "AMB-30": Decided(
        "Rows depending on articles not in the corpus are left out as 'base text not in the corpus': "
        "SLOT-27 is ruled out (art. 68-17, SET-30 unused), as are COUNT-14's arts. 47–48 rules and "
        "COUNT-33's art. 53 exception. Other rows, e.g. GAME-33 and SHUF-12, are built from the quoted "
        "fragments alone.",
        ("ledgers.core.requirements",),
    ),
    "AMB-31": Decided(
        "No ledger effect. The FR dice end check uses the corrected spelling 'balancing caliper' "
        "(DICE-24), and lucky ladies is recorded only as pay table A or B (GAME-08), so the superseded "
        "'Paire totalisant 20' label never appears.",
        ("ledgers.dice.services.checks", "ledgers.tables.rules"),
    ),
    "AMB-32": Decided(
        "Table change follows each jurisdiction's slips. MC: the chef de table's change slip (COUNT-04) "
        "and the changeur's slip (COUNT-06); at a MC cercle table the chef de table's slip is refused "
        "(COUNT-06: art. 17.2 gives the change to the changeur alone). FR cercle tables change only "
        "through the changeur whose box is in modèle 11 (COUNT-28)."
        " FR punto banco's marbre change is not recorded.",
        ("ledgers.cash.services.slips", "ledgers.cash.services.changeurs"),
    ),
    "AMB-33": Decided(
        "The extension record (GAME-29) is refused except at a MC chemin de fer table: the Direction des "
        "Jeux decides it, up to 12 hours past the SET-25 closing time, and MC parties closed late without"
        " one are flagged. FR has no extension; its SET-25 closing times only feed the AUTH-01 opening-"
        "hours declaration check.",
        ("ledgers.tables.services", "ledgers.tables.selectors"),
    ),
    "AMB-34": Decided(
        "Only the back colour is a card attribute: each deck's `back_colour`, counted per colour at issue"
        " to check 3 + 3 compositions (SET-02). A card's suit is never recorded (lucky ladies is kept as "
        "pay table A/B), so the two senses never share a field.",
        ("ledgers.cards.models", "ledgers.cards.services.issue"),
    ),
    "AMB-35": Decided(
        "Partly: the slot drop is slots.Releve, kept apart from the tables' staff relief "
        "(StaffAssignment.relief_of); 'sixain' is only the six-deck card unit, the roulette bet is not "
        "modelled; the card 'comptée' is second_control, cash is 'counted'. But 'socle' names two models,"
        " equipment.Socle (shuffler base) and slots.Socle (slot stand).",
        (
            "ledgers.slots.models.releves",
            "ledgers.tables.models",
            "ledgers.equipment.models",
            "ledgers.slots.models.machines",
        ),
    ),
    "AMB-36": Decided(
        "MC SET-26 dice_service_paraphe defaults to True: writing to the dice-in-service register "
        "(REG-05) is refused unless its volume was opened (coté et paraphé) by the Commissaire du "
        "Gouvernement. An establishment SET-26 of False switches the check off.",
        ("ledgers.dice.services.common", "ledgers.core.jurisdictions"),
    ),
    "AMB-37": Decided(
        "MC SET-05: a destruction or neutralisation is refused before the time planned when the SCJ was "
        "told (it may attend what it was told of), and until scj_notice_minutes (1440, a day by default; "
        "no setting below 60) have passed since the SCJ notice the system timestamped (CARD-11, DICE-07). "
        "Periodicity"
        " is destruction_period_days, 30 by default; a card unit withdrawn longer and not destroyed is "
        "flagged (CARD-10).",
        ("ledgers.custody.services.destruction", "ledgers.cards.selectors", "ledgers.core.jurisdictions"),
    ),
    "AMB-38": Decided(
        "FR only (common_desk_enable, SLOT-26). Route (a) is refused above 75 machines in service "
        "(exactly 75 is allowed); route (b) is refused while any machine in service is not TITO/cashless."
        " Both need contiguous table games and a prior, dated police validation. The 75 is a constant "
        "(COMMON_DESK_MAX), not SET-43.",
        ("ledgers.slots.services.cashdesk",),
    ),
    "AMB-39": Decided(
        "SET-31 defaults to the inspecteur (MC profile); it is not among the settings the director "
        "changes. At the end of a roulette partie the lid key goes back only to a holder of that role, "
        "else KEY-08 refuses, and the partie cannot end before the lid is locked and the key returned "
        "(WHEEL-02).",
        ("ledgers.core.jurisdictions", "ledgers.equipment.services.wheels", "ledgers.keys.policy"),
    ),
    "AMB-40": Decided(
        "Partly: the role mapping (SET-27) has separate roles for the Direction des Jeux (directeur_jeux,"
        " sous_directeur), the Direction de l'exploitation (directeur_exploitation, slot files) and the "
        "Secrétariat Général. The directeur des jeux holds the Direction des Casinos (INC-06); the "
        "Direction des Appareils Automatiques has no role.",
        ("ledgers.core.roles", "ledgers.slots.rules", "ledgers.slots.services.common"),
    ),
    "AMB-41": Decided(
        "A limit-lock rule per game (LIMITS). FR roue de la chance is 'locked': changes during play are "
        "refused (GAME-38), though the minimum may be raised at opening. FR ultimate hold'em and three-"
        "card poker are 'display': refused unless the table display shows it (GAME-33, GAME-35). MC boule"
        " needs the Administration agreement reference (GAME-25).",
        ("ledgers.tables.rules", "ledgers.tables.services"),
    ),
    "AMB-42": Decided(
        "The 20–25 mm side check is FR only: at intake a FR die whose measured side is missing or outside"
        " 20–25 mm is refused (DICE-13). MC dice pass the shared shape and marks checklist (DICE-01, "
        "DICE-02) with no size.",
        ("ledgers.dice.services.receipt", "ledgers.dice.rules"),
    ),
    "AMB-43": Decided(
        "MC roulette is put into service only with its recorded spec: European exactly 37 pockets, one "
        "zero and 7 obstacles (WHEEL-01), American 38 pockets, 0 and 00 and at least 7 obstacles "
        "(WHEEL-03); otherwise refused. No setting; FR wheels are not checked.",
        ("ledgers.equipment.specs", "ledgers.equipment.services.wheels"),
    ),
    "AMB-44": Decided(
        "FR punto banco cards follow the same art. 39, 40, 40-1 rules as every FR card game (sixain "
        "intake CARD-25, cabinet, post-partie control, shuffler SHUF-15), with no punto-banco branch; "
        "CARD-24 cites arts. 39, 40, 40-1 only and art. 41 is cited only for orphans (COUNT-30 to 32). No"
        " compliance-confirmation flag.",
        ("ledgers.cards.deck_rules", "ledgers.cards.services.issue", "ledgers.core.catalogue"),
    ),
    "AMB-45": Decided(
        "Not acted on beyond citation: the code and catalogue cite only the post-2009 numbers (68-x for "
        "slots, arts. 69 to 75, the carnet d'avances as art. 70); no 67-n → 68-n mapping is kept, since "
        "no pre-August-2009 document is read or imported.",
        ("ledgers.core.catalogue", "ledgers.cash.registers"),
    ),
    "AMB-46": Decided(
        "The registre spécial d'observations prints as 'modèle 20' and the art. 81 census register as "
        "'modèle 16'. Form numbers are RegisterKind.form held in code per register kind (SET-48), not a "
        "per-establishment setting, and nothing flags them 'to confirm' (REG-44, REG-36).",
        ("ledgers.authority.registers", "ledgers.cash.registers", "ledgers.registers.kinds"),
    ),
    "AMB-47": Decided(
        "Partly: the art. 49 multiples are the quoted table (ART_49_MULTIPLES, no Sic-Bo), overridable "
        "per game in options SET-07 (default {}); form numbers (SET-48) and authority names (SET-49) are "
        "held in code per register kind and per jurisdiction. No FR row is marked provisional.",
        ("ledgers.cash.rules", "ledgers.cash.selectors", "ledgers.core.jurisdictions"),
    ),
    "AMB-48": Decided(
        "Kept as quoted: the FR registre de change is coted and paraphed only by the COMPTABLE_TRESOR "
        "role (fixed paraph_roles, no SET-26 entry), and counterfeit coins are destroyed only at the end "
        "of a financial year with the comptable du Trésor's name entered (SLOT-45). 'To confirm' appears "
        "only in code comments.",
        ("ledgers.cash.registers", "ledgers.slots.services.cashdesk"),
    ),
    "AMB-49": Decided(
        "Allocators: punto banco {directeur responsable, comité, employé responsable}; baccara, chemin de"
        " fer, blackjack {DR, employé responsable}, plus a comité member allowed and flagged (setting "
        "AMB-49 comite_allocates, default True). Blackjack goes to the carnet d'avances sabot column, "
        "baccara to modèle 11 col. 3 (SHOE-06, SHOE-12, SHOE-13).",
        ("ledgers.equipment.services.shoes", "ledgers.equipment.specs", "ledgers.cash.services.sabots"),
    ),
    "AMB-50": Decided(
        "Read as the words say, a window: the Minister is told within the N before the act, so the act "
        "comes within N after the notice the system recorded, and is refused once that notice is older "
        "(it is then given again; a second notice while one holds is refused). SET-42 "
        "bbj_final_stop_hours (default 48) for a BBJ final stop (COUNT-47); SET-42 "
        "progressive_notice_days (default 15) for a progressive stop or transfer (SLOT-37) and a JPM "
        "withdrawal (SLOT-41).",
        ("ledgers.cash.services.bbj_stops", "ledgers.slots.services.progressives", "ledgers.incidents.services"),
    ),
    "AMB-51": Decided(
        "Stricter reading by default: KEY-BP 'AMB-51' = True applies the upper-part opening rule in every"
        " casino; above SET-43 (75) machines the witness must be the mechanic, at or below it the "
        "mechanic, slot employee or cashier (KEY-17). Turning AMB-51 off drops the witness above 75 "
        "machines.",
        ("ledgers.keys.services", "ledgers.keys.policy"),
    ),
    "AMB-52": Decided(
        "A ticket issued on day D is redeemable through D + SET-37 (8) and expires after it (SLOT-44). "
        "The SFM visit is flagged after SET-38 (120) calendar days, not opening days: no opening calendar"
        " is kept (SLOT-54). The art. 92 follow-up is due within SET-41 days (8, calendar; REG-44).",
        ("ledgers.slots.services.unclaimed", "ledgers.slots.selectors", "ledgers.authority.services.observations"),
    ),
    "AMB-53": Decided(
        "Retention is counted in periods starting SET-40 (FR 1 November, the season): the period of a "
        "register's last entry plus SET-39 (10). A purge is refused before that term and, even after it, "
        "only a clearance is recorded and nothing is deleted; no automatic purge (REG-43).",
        ("ledgers.authority.retention", "ledgers.authority.services.archives"),
    ),
    "AMB-54": Decided(
        "A correction is a new entry pointing to the one it corrects, which stays. It is refused without "
        "a reason and an approval in words, is made by an SET-47 approver (FR DR or comité) and prints in"
        " red (REG-27). The signature is re-authentication in the hash-chained entry, not eIDAS (REG-28).",
        ("ledgers.registers.services", "ledgers.registers.printing.register", "ledgers.core.api.actions"),
    ),
    "AMB-55": Decided(
        "A repair removal, a return or a replacement (SLOT-34) is countersigned, with the mechanic (or "
        "the employee where ≤ SET-43 machines), by the comité member the day's slot staffing assigns to "
        "the control of the games (art. 68-27, SLOT-50); another comité member is refused. On a day with "
        "no staffing written (the slot room cannot open then) any comité member may sign.",
        ("ledgers.slots.services.machines",),
    ),
    "AMB-56": Decided(
        "Each table-partie's minimum avance is multiple × minimum stake in force (SET-07 over art. 49); "
        "below it is refused (COUNT-12), and an avance varying within the day is refused (COUNT-33). A "
        "minimum differing from the table's first of the season is allowed and flagged COUNT-37. SET-07 "
        "itself is not frozen for the season.",
        ("ledgers.cash.services.floats", "ledgers.cash.selectors"),
    ),
    "AMB-57": Decided(
        "Every FR table of the cercle family (poker, chemin de fer, baccara à deux tableaux) keeps its "
        "own cagnotte numbered like the table and cannot open for play without it (COUNT-17, COUNT-42). "
        "Ticket-book and levy-machine rules apply to every FR cercle table. Écarté is not in the game "
        "catalogue.",
        ("ledgers.cash.services.table_cagnottes", "ledgers.cash.services.tickets"),
    ),
    "AMB-58": Decided(
        "A ticket book's séance stamp and blue line (COUNT-40) stand until the cagnotte computation "
        "detaches its tickets: a second stamp before that is refused as the same séance. Cagnottes are "
        "computed and counted per table-partie in modèle 11 (COUNT-52). No separate one-day limit is "
        "checked.",
        ("ledgers.cash.services.tickets", "ledgers.cash.services.cagnottes"),
    ),
    "AMB-59": Decided(
        "FR intake only as plain-back sixains, refused otherwise (CARD-25). A single deck may be issued "
        "alone to a one-deck game and keeps its sixain link. Poker shuffler decks are not received as "
        "two-deck sets: at issue, two decks (red and blue, plastic, with an approval reference) are "
        "required (SHUF-12), with no flag.",
        ("ledgers.cards.services.receipt", "ledgers.cards.models", "ledgers.equipment.hooks"),
    ),
    "AMB-60": Decided(
        "Per jurisdiction. MC destruction or neutralisation is refused until the SCJ notice was recorded "
        "SET-05 scj_notice_minutes before (CARD-11). FR destruction is refused without a police officer "
        "who visas modèle 19 (CARD-31). Card anomalies notify inspecteur, directeur des jeux and SCJ in "
        "MC (INC-02), the police in FR (INC-13).",
        ("ledgers.custody.services.destruction", "ledgers.cards.domains", "ledgers.incidents.categories"),
    ),
    "AMB-61": Decided(
        "Slot key custody is SET-36 per jurisdiction. MC: door keys in the coffre, handed by superviseurs"
        " (KEY-04, KEY-05); socle and bill release at the caisse centrale (KEY-02); bill content with "
        "comptabilité (KEY-03). FR: upper/lower DR or comité (KEY-13), boxes cashier (KEY-14), reset "
        "comité (KEY-15), logic board SFM or police (KEY-16).",
        ("ledgers.keys.policy", "ledgers.core.jurisdictions"),
    ),
    "AMB-62": Decided(
        "Two orphan models, not one: MC slot orphans (slots Orphan, slot_jackpots register; never paid to"
        " staff, taker excluded; SLOT-19, INC-05) and FR orphans (cash Orphan, carnet 11 bis; cash desk "
        "or tirelire, restitution, expired tickets never refunded, season clearing; COUNT-30 to 32). The "
        "slot service checks no jurisdiction.",
        ("ledgers.slots.services.monitoring", "ledgers.cash.services.orphans"),
    ),
    "AMB-63": Decided(
        "FR has no plain 'directeur' role; 'directeur' is read as directeur responsable. Art. 58 sabots: "
        "DR or employé responsable, comité allowed and flagged (AMB-49). Art. 69 corrections: SET-47 (DR "
        "or comité). Art. 74 modèle 35: written by the DR and paired with a comité member (SLOT-56). "
        "Nothing flags it 'to confirm'.",
        ("ledgers.equipment.specs", "ledgers.registers.services", "ledgers.slots.services.accounting"),
    ),
}
