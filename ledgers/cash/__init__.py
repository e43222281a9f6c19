"""Caisses des jeux: table floats (MC somme mise en banque, FR avance) and the carnet d'avances,
change slips and ravitaillement bons, end-of-séance counts, the poker rake and the FR registre de
contrôle (modèle 12). It covers the catalogue's COUNTROOM rows (COUNT-*) and the registers they
name (REG-09, REG-10, REG-13, REG-14, REG-29, REG-30, REG-31, REG-32, REG-33, REG-34, REG-35, REG-36).

Status of every COUNT row (implemented / partial: what is missing / ruled out: why / not done):

- COUNT-01 implemented: somme mise en banque fixed per table (SET-06), breakdown = amount, no cash; a
  table with a fixed sum that played without it is flagged at the séance closing (hooks.py).
- COUNT-02 implemented: no change slip at a table that is not open.
- COUNT-03 implemented: banknote lines refused in floats and slips.
- COUNT-04 implemented: numbered change slips, inspecteur's signature, equal totals, gaps reported.
- COUNT-05 implemented: banknote box counted only at the end-of-séance count of its table-partie.
- COUNT-06 implemented: changeur replenishment slip signed by the inspecteur, equal values.
- COUNT-07 implemented: one active ticket book per chemin de fer table, its cover number printed.
- COUNT-08 implemented: no cagnotte count before the ticket-book check; a difference opens an
  incident (INC-01).
- COUNT-09 implemented by COUNT-08's flow: no per-coup entry (the stubs are the evidence), and the
  cagnotte is counted only after the tickets detached from each book are computed, the count then
  compared with them (test_count_08_count_09_reg_13_mc_no_cagnotte_opened_before_the_ticket_book_check). Not done:
  the BP that ticket denominations represent any levy amount (no levy unit is set by the text).
- COUNT-10 implemented: at MC trente et quarante the certification takes the refait insurance
  premiums (zero if none) and writes them on their own line of the table result.
- COUNT-11 implemented: SFE advance slips at MC chemin de fer, handed over by a changeur, with the
  SFE authorisation reference, in the register of the cash slips (sfe.py).
- COUNT-12 implemented: art. 49 multiple × minimum stake practised, table-driven tests.
- COUNT-13 implemented: the directeur responsable or a comité member designates, for a table-partie,
  the gaming employee in charge of the box (written in the carnet d'avances, box_holders.py); the
  avance is received only by a chef de table or that designated employee; no designation while a
  chef de table is on duty at the partie (ledgers.tables staffing).
- COUNT-14 implemented: one uniform avance per boule-type game; the initial avance of these games
  is refused unless the carnet is confirmed on the table before the chef de partie or de table (the
  opening's checklist item, recorded on the avance). Ruled out: arts. 47 and 48 special rules, base
  texts not in the corpus (SETTING until supplied, as the catalogue says).
- COUNT-15 implemented: blind count, called aloud, certified "exact" by the directeur responsable
  or a comité member; the séance does not close without it (hooks.py).
- COUNT-16 implemented (ledgers/equipment writes the sabot allocation in the carnet).
- COUNT-17 / COUNT-42 implemented: a French cercle table's cagnotte is put into service with the
  table's number, written in its carnet modèle 11 (table_cagnottes.py); table numbers being unique,
  a cagnotte is never shared. Not enforced: a cagnotte recorded before the first cagnotte count.
- COUNT-18, COUNT-19 implemented: rake calculator (rules.rake, API /cash/rake/).
- COUNT-20 implemented: a texas hold'em table opens only with its rake rate posted (authority REG-23 checklist).
- COUNT-21, COUNT-22, COUNT-23 implemented (registre du bad beat jackpot modèle 8 quater); a
  difference opens an INC-10 incident; an entry made later than the establishment's COUNT-22
  setting (minutes after the end of the partie; 30 by default, the text says "immédiatement": to
  confirm) is flagged on the count and its register line.
- COUNT-24 implemented: the displayed amount is entered and validated by the comité member, the
  séance does not close while a BBJ table's is missing (hooks.py), and a displayed amount other
  than previous + retenues − payouts (+ restart values) is flagged on the count and in the register
  (bbj.py; per table: a BBJ shared by several tables would need one jackpot across them).
- COUNT-25 implemented: the register is append-only and hash-chained (REG-20).
- COUNT-26 implemented: one change register per gaming cash desk, numbered like it, a second open
  volume refused; no exchange at a desk without its open register.
- COUNT-27 implemented: a ravitaillement bon refuses banknotes among the chips requested and a
  foreign currency (the bons are table change transactions, in euros); at baccara à deux tableaux
  each banker's segment is written with the nomenclature of his somme en banque, a banknote line
  refused (baccara.py). Not covered: the bank of other cercle games, where no banker is recorded.
- COUNT-28 implemented: the directeur responsable fixes the sum of a cercle table's changeur box;
  the box of each changeur and table-partie, equal to that sum, is written in the table's carnet
  modèle 11 (changeurs.py); a ravitaillement bon at a cercle table is refused to anyone but a
  changeur whose box is written for that partie.
- COUNT-29 implemented: ravitaillement bons signed, served, centralised before the séance closes.
- COUNT-30 implemented: orphans with the abandoned-stake breakdown.
- COUNT-31 implemented: every orphan written in carnet modèle 11 bis; a tirelire opened before
  witnesses only for sums posted since its last opening; the "orphelins" account cleared at the
  season end only when its balance equals the carnet's grand total.
- COUNT-32 implemented: restitution to a proven owner, expired tickets never refunded.
- COUNT-33 implemented: box numbered like the table, avance fixed for the day, top-ups equal.
  Ruled out: the art. 53 exception, base text not in the corpus.
- COUNT-34 implemented: avance counted, called aloud, signed by the directeur responsable or a
  comité member; a contrepartie table-partie played without its avance is flagged at the séance
  closing (the avance is entered on the open partie, so play before it cannot be refused). Not done:
  the BP check of the transport box against a register of boxes (no such register exists).
- COUNT-35 implemented: count-room route only with the police validation (SET-44), the CCTV
  reference, and for a table where cash was changed (banknotes in the encaisse).
- COUNT-36 implemented: tips counted with the encaisse. Ruled out: "performed slowly enough to be
  followed" is a manner of doing that software cannot observe (the CCTV reference is required).
- COUNT-37 implemented: no avance before the table's locked built-in box (and the locked coffret
  when banknotes are accepted) is recorded; a change of the minimum avance during the season is
  flagged.
- COUNT-38 implemented: the computed cagnotte is generated from the books' detached ticket ranges,
  never keyed by hand; the per-séance stub records are the keeper's date stamps (COUNT-40) in the
  register of the ticket books (tickets.py).
- COUNT-39 implemented: a ticket book bears its table's number and is used only there; the cercle
  card tables' serial numbers form one series per season, a gap, a duplicate or a renumbering
  refused, the tables left out listed (tickets.card_table_number).
- COUNT-40 implemented: only the keeper (GARDIEN_CARNETS) puts a book into service, with the date
  stamp on its first ticket, and stamps the first ticket of each following cagnotte séance with the
  blue line; no ticket of a séance is detached before its stamp; until the cagnotte is counted the
  stamp stands (one séance, AMB-58). The cover's finishing date is set when the last ticket goes.
- COUNT-41 implemented: a levy machine only with its approval reference; at its table the computed
  cagnotte is the printed history's total (tickets refused), the imported per-partie log adding up to it.
- COUNT-43 implemented: cagnotte counted only by the directeur responsable or a comité member,
  "certifié exact".
- COUNT-44 implemented: bons split 50 % to the winner and 50 % in equal shares among all the players
  present (rules.bbj_split, cents left to the main prize); the minimum pot recorded with the
  règlement intérieur version in force (none in force: refused), a pot below it refused.
- COUNT-45 implemented: versioned conditions (starting value, increment type and value, rounding,
  side-pot rule, restart 0 € or the starting value), a new version refused until a final stop, a
  restart value other than the configured one refused. The conditions posted (REG-23) are an item
  of the table's display checklist (ledgers.authority.displays), required before the BBJ starts.
- COUNT-46 implemented: a table runs the BBJ only with an approved machine and a BBJ cagnotte
  built into it; the machine's per-partie log of a table-partie (time, pot, house and BBJ
  retenues, wins paid, BBJ amount, payments to each player) is imported from its CSV export (format
  in the bbj.py docstring) once the partie's retenue is in the registre du BBJ, stored, and a sum
  of BBJ retenues other than that retenue, or payments other than the wins paid, flagged on the
  register line and the BBJ page. The machine's link to the casino network is not recorded.
- COUNT-47 implemented: final stop only with the Minister's notice at least SET-42 before (48 h,
  AMB-50), its increment (amount above the starting value) written to the orphans (carnet 11 bis)
  in the same transaction; reassignment to a new BBJ refused after 31 October of the stop's season;
  while a breakdown is open (INC-15) payouts are refused, and a retenue for a partie played wholly
  during a breakdown. The temporary voluntary stop, "possible at any time", is written with its
  time and who decided it, and so is its resumption (bbj.py); while it lasts payouts are refused,
  and a retenue for a partie played wholly during it (the BBJ is not running).
- COUNT-48 implemented: one numbered payment bon per player present, the winner named, the game,
  table, combination, date and time and every amount in the registre du BBJ, signed by the cashier
  and countersigned by the comité member who controls the payment.
- COUNT-49 implemented: one carnet d'avances per box, numbered like it, a second open volume
  refused.
- COUNT-50 implemented: only certified carnets are carried to modèle 12. Ruled out by construction:
  "a reversible table needs a new carnet" (a table's game is fixed when it is created, so another
  game is another table, with its own carnet numbered like it).
- COUNT-51 implemented (electronic.py): one registre de comptabilité modèle 10 bis per device,
  numbered like it (coté et paraphé, REG-26), a line per station and day whose product must follow
  art. 70-1, the daily visa by a comité member, and modèle 12 refusing a device day not visaed and
  carrying the visaed product. The état mensuel du relevé des compteurs modèle 33 (art. 69 b: one
  per establishment, coté et paraphé) is drawn up once the month is over from modèle 10 bis: per
  device its stations' units in and out, unit stakes and electronic count, and its product; refused
  while a device day of the month is not visaed (art. 70-1), certified by the cash desk and a
  comité member (the text names no signer), one per month. The stations' meters are the daily
  differences recorded in modèle 10 bis: no cumulative meter index is kept for these devices.
- COUNT-52 implemented: cols. 1 to 8 computed on the carnet before the count, with the directeur
  responsable or a comité member; interruption, resumption and new-book lines during play.
- COUNT-53 implemented: col. 15 = max(col. 8, col. 9) per table, surplus balanced by tickets,
  shortfall borne by the cash desk; a difference opens an INC-17 incident.
- COUNT-54 implemented (baccara.py): the carnet modèle 11 of a baccara à deux tableaux table bears
  the "banque limitée / ouverte" mention before any banker; each banker's segment is headed by his
  name (col. 3, the croupiers and changeurs in col. 3 bis); no cagnotte computed for a partie
  without a banker (test_count_54_no_cagnotte_computed_for_a_partie_without_a_banker).
- COUNT-55 implemented (electronic.py): per electronic cercle device the modèle 7 daily statement
  and the carnet 11 quater numbered like it (coté et paraphé, REG-26), the game on every line; the
  levies "certifié exact" by a comité member, modèle 12 refusing a device day not yet certified.
- COUNT-56 implemented: modèle 12 by carry-forward only, closed in words, two visas.
- COUNT-57 implemented: modèle 13 sheet per season month, daily lines only from visaed modèle 12
  days, closed with the modèle 35 total, the gross gaming product since 1 November (the base the
  levies are computed on). Ruled out: the State, commune, EPCI and social levies' calculation
  elements (rates, abatements), set by tax law outside the corpus.
- COUNT-58 implemented (plaques.py): registre des plaques, jetons et cartes de paiement (modèle 16,
  REG-36): series with description, manufacturer, values and number per value, reserve and service;
  the census at season start and mid-season (SET-45), due ones shown on the page and the dashboard;
  the player-held amount (series in service − counted) flagged when ≠ the account balance entered.

INC-15 implemented: a BBJ breakdown is recorded only with the judicial police's information (time,
service), opens an incident with that notice, and is closed when the system is restored.

REG-32 implemented with COUNT-38 to COUNT-41 (register of the ticket books), REG-36 with COUNT-58.
"""
