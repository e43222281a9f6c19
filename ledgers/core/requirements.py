"""What the code does with the catalogue where its citations cannot say it: the rows ruled out
(with the article that makes them impossible or out of scope), the rows answered by a report, the
decisions taken where the text is silent, and the settings held other than through
``Establishment.setting``. The status tables
of docs/requirements/ are generated from this file and from the code (``ledgers.core.status``)."""

from typing import NamedTuple


class Ruling(NamedTuple):
    article: str
    reason: str


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
    "SLOT-28": "ledgers.authority.authorisation.authorisation_figures",
}

# Decisions taken where the text is silent, and parts of a row left out with their reason; keyed
# by the row or setting they bear on.
DECISIONS: dict[str, str] = {
    # Cards and dice
    "CARD-10": "Destruction periodicity: SET-05 destruction_period_days (30 by default, the text says "
    "only 'depending on activity'); a depot whose last destruction is older is flagged.",
    "CARD-11": "The notice to the SCJ is recorded by the system when it is given (never typed in); the "
    "destruction is refused until SET-05 scj_notice_minutes have passed since it: a day by default, "
    "time for an agent to attend (AMB-37: the text sets no lead time).",
    "DICE-07": "As CARD-11: notice timestamped by the system, destruction refused before SET-05 "
    "scj_notice_minutes (a day by default, AMB-37).",
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
    "SLOT-54": "AMB-52: '120 days of operation' counted as the days the establishment was open (SET-38).",
    "INC-16": "'Without delay': an urgent anomaly's police information later than the option INC-16 "
    "(60 minutes by default, to confirm) is flagged.",
    "SLOT-29": "The devices and displays are required before service (authority checklist); the flag of "
    "a door-open signal with no intervention record is the monitoring import's SLOT-53 flag.",
    "SLOT-34": "AMB-55: 'membre du comité spécialisé' read as the comité member assigned to slot "
    "control; any comité member may sign when none is assigned (flagged).",
    "KEY-17": "AMB-51: the upper-part opening rule applies to every casino, the employee alternative "
    "only to casinos with 75 machines or fewer (SET-43).",
    # Registers
    "INC-03": "Recorded (000 art. 1.3): the exchange is the CARD-16 record, written in the card events "
    "register; its refusals are CARD-16's.",
    "REG-03": "Recorded: the annex ledger's lines are written by the transfers (CARD-05, DICE-04); its "
    "paraphe is SET-26.",
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
    "REG-27": "AMB-54: a correction is a counter-entry with its reason and an approval in words by a "
    "SET-47 approver, printed in red.",
    "REG-43": "AMB-53: retention counted in seasons, the end computed per entry; never purged automatically.",
    "REG-44": "AMB-46: registre spécial d'observations printed as modèle 20 (SET-48).",
    # Settings
    "SET-04": "Default restrictive until the consolidated text is confirmed (AMB-03).",
    "SET-13": "Default 'any table' (AMB-09).",
    "SET-17": "Default: cap after rounding, min(round_up_0.50(rate × pot), cap) (AMB-24).",
    "SET-26": "Registers whose text names nobody to cote and paraph them: the directeur responsable "
    "(FR) or the Direction des Jeux (MC); MC annex ledger not paraphed, MC dice-in-service register "
    "paraphed (AMB-36).",
    "SET-42": "Read as a minimum notice (AMB-50).",
    "SET-08": "Entered by the establishment's director (FR the directeur responsable, MC the directeur "
    "des jeux) on the settings page or through the API, as every setting the texts leave to the house "
    "(ledgers.core.establishment_settings); each change is a line of the main courante.",
    "SET-23": "No default: until the Direction des Jeux fixes the threshold, no refait premium is taken (GAME-24).",
    "SET-05": "MC minimum notice to the SCJ before a destruction: a day by default (the text sets none, "
    "AMB-37); issue lead time 60 minutes; destruction periodicity 30 days (flag).",
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
