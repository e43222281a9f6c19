"""Forms of the table cash pages. Nomenclatures are typed one line per denomination:
"valeur x quantité [jeton|plaque|billet]"."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin
from ledgers.core.models import Location, LocationKind
from ledgers.core.roles import Role

from . import rules
from .baccara import DEUX_TABLEAUX
from .models import BaccaraBank, BadBeatConfig, ChipSeries, ElectronicDevice, Orphan, SlipBook, TicketBook
from .selectors import RAKE_GAMES
from .tickets import CARD_CERCLE_GAMES, CERCLE_GAMES

BREAKDOWN_HELP = _("Une ligne par valeur : « valeur x quantité [jeton|plaque|billet] », par ex. « 1000 x 20 plaque ».")


class BreakdownField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 5})

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", BREAKDOWN_HELP)
        super().__init__(**kwargs)

    def clean(self, value):
        return rules.parse_breakdown(super().clean(value))


class CashForm(CountersignMixin, forms.Form):
    def __init__(self, *args, establishment, request, **kwargs):
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)


class FloatForm(CashForm):
    kind = forms.ChoiceField(
        label=_("Nature"), choices=[("initial", _("Avance initiale")), ("top_up", _("Avance complémentaire"))]
    )
    breakdown = BreakdownField(label=_("Nomenclature"))
    box_number = forms.CharField(label=_("Caisse n°"), max_length=20, required=False)
    transport_box = forms.CharField(label=_("Boîte de transport"), max_length=40, required=False)
    counted_by = forms.CharField(label=_("Compté par (croupier)"), max_length=150, required=False)
    called_aloud = forms.BooleanField(label=_("Somme annoncée à haute voix"), required=False)
    carry_note = forms.CharField(
        label=_("Écart avec la comptée précédente"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    carnet_on_table = forms.BooleanField(
        label=_("Carnet d'avances posé sur la table devant le chef de partie ou le chef de table"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.establishment.jurisdiction == "MC":
            for name in ("kind", "box_number", "transport_box", "counted_by", "called_aloud", "carnet_on_table"):
                del self.fields[name]
            self.add_countersignature("receiver", _("Chef de table qui reçoit"))
        else:
            self.add_countersignature(
                "receiver", _("Chef de table ou employé désigné qui reçoit la caisse"), required=False
            )


class FixBankForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    amount = forms.DecimalField(label=_("Somme mise en banque (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class SlipBookForm(CashForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=SlipBook.Kind.choices)
    number = forms.CharField(label=_("Carnet n°"), max_length=30)
    first_number = forms.IntegerField(label=_("Premier bon"), min_value=1)
    last_number = forms.IntegerField(label=_("Dernier bon"), min_value=1)


class SlipWriteForm(CashForm):
    book = forms.ModelChoiceField(label=_("Carnet"), queryset=None)
    number = forms.IntegerField(label=_("Bon n°"), min_value=1)
    table_session = forms.ModelChoiceField(label=_("Table"), queryset=None)
    requested = BreakdownField(label=_("Jetons et plaques demandés"))
    handed = BreakdownField(label=_("Remis en échange (plaques, jetons ou billets)"))
    runner = forms.CharField(label=_("Porteur"), max_length=150, required=False)
    currency = forms.CharField(label=_("Devise des billets changés"), max_length=3, initial="EUR", required=False)

    def __init__(self, *args, sessions=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["book"].queryset = SlipBook.objects.filter(establishment=self.establishment)
        self.fields["table_session"].queryset = sessions
        self.add_countersignature("supervisor", _("Contresignataire (inspecteur, chef de partie ou de table, comité)"))


class DeskForm(CashForm):
    desk = forms.ModelChoiceField(label=_("Caisse"), queryset=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["desk"].queryset = Location.objects.filter(
            establishment=self.establishment, kind=LocationKind.CAISSE_CENTRALE
        )


class SlipVoidForm(CashForm):
    book = forms.ModelChoiceField(label=_("Carnet"), queryset=None)
    number = forms.IntegerField(label=_("Bon n°"), min_value=1)
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["book"].queryset = SlipBook.objects.filter(establishment=self.establishment)
        self.add_countersignature("cosigner", _("Second signataire"))


class CountForm(CashForm):
    breakdown = BreakdownField(label=_("Encaisse comptée"))
    tips = forms.DecimalField(label=_("Pourboires (€)"), min_value=0, decimal_places=2, required=False)
    present = forms.CharField(
        label=_("Employés de la table présents (un par ligne)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    called_aloud = forms.BooleanField(label=_("Encaisse annoncée à haute voix"), required=False)
    count_room = forms.BooleanField(label=_("Comptée en salle de comptage"), required=False)
    cctv_reference = forms.CharField(
        label=_("Caméra et enregistrement de vidéoprotection"), max_length=120, required=False
    )


class CertifyForm(ReauthMixin, CashForm):
    words = forms.CharField(label=_("Mention"), max_length=40, initial="exact")
    encaisse = forms.DecimalField(label=_("Encaisse retenue après recomptage (€)"), decimal_places=2, required=False)
    resolution = forms.CharField(
        label=_("Explication de l'écart"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    insurance_premiums = forms.DecimalField(
        label=_("Primes d'assurance refait (€)"), min_value=0, decimal_places=2, required=False
    )

    def __init__(self, *args, session=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Only MC trente et quarante takes refait insurance premiums (COUNT-10).
        if session is None or session.table.game != "trente_quarante" or self.establishment.jurisdiction != "MC":
            del self.fields["insurance_premiums"]


class RakeForm(forms.Form):
    game = forms.ChoiceField(label=_("Jeu"), choices=[(g, g.replace("_", " ").title()) for g in RAKE_GAMES])
    cave = forms.DecimalField(label=_("Cave initiale (€)"), min_value=0, decimal_places=2)
    pot = forms.DecimalField(label=_("Montant effectif du pot (€)"), min_value=0, decimal_places=2)
    recorded = forms.DecimalField(
        label=_("Cagnotte prélevée (€, facultatif)"), min_value=0, decimal_places=2, required=False
    )


class ControlCloseForm(CashForm):
    date = forms.DateField(label=_("Journée"), widget=forms.DateInput(attrs={"type": "date"}))


class ControlVisaForm(ReauthMixin, CashForm):
    statement = forms.CharField(label=_("Mention du visa"), max_length=200, required=False)


class TicketBookForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    cover_number = forms.CharField(label=_("Numéro de couverture"), max_length=30)
    ticket_value = forms.DecimalField(label=_("Valeur du ticket (€)"), min_value=0, decimal_places=2)
    first_number = forms.IntegerField(label=_("Premier ticket"), min_value=1)
    last_number = forms.IntegerField(label=_("Dernier ticket"), min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class CagnotteComputeForm(CashForm):
    """One line per book used: "couverture dernier-ticket-détaché"."""

    detached = forms.CharField(
        label=_("Dernier ticket détaché de chaque carnet"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Une ligne par carnet : « numéro de couverture  dernier ticket », par ex. « TH1 140 »."),
    )

    def __init__(self, *args, session=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session

    def clean_detached(self):
        books = {book.cover_number: book for book in TicketBook.objects.filter(table=self.session.table)}
        lines = []
        for raw in self.cleaned_data["detached"].splitlines():
            parts = raw.split()
            if not parts:
                continue
            if len(parts) != 2 or parts[0] not in books or not parts[1].isdigit():
                raise forms.ValidationError(
                    _("Ligne illisible ou carnet inconnu à cette table : « %(line)s ».") % {"line": raw.strip()}
                )
            lines.append({"book": books[parts[0]], "last_number": int(parts[1])})
        return lines


class CagnotteCountForm(CashForm):
    breakdown = BreakdownField(label=_("Cagnotte comptée"))
    words = forms.CharField(label=_("Mention"), max_length=40, initial="certifié exact", required=False)
    balancing_ticket = forms.IntegerField(label=_("Dernier ticket d'équilibre (col. 13)"), min_value=1, required=False)


class BadBeatForm(CashForm):
    counted = forms.DecimalField(label=_("Cagnotte du bad beat jackpot comptée (€)"), min_value=0, decimal_places=2)
    statement = forms.DecimalField(label=_("Relevé informatique (€)"), min_value=0, decimal_places=2)
    displayed = forms.DecimalField(label=_("Montant affiché en fin de séance (€)"), min_value=0, decimal_places=2)
    present = forms.CharField(
        label=_("Employés de la table présents (un par ligne)"), widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))


class BadBeatLogForm(CashForm):
    file = forms.FileField(label=_("Historique de la machine agréée (export CSV)"))

    def clean_file(self) -> str:
        try:
            return self.cleaned_data["file"].read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(_("Le fichier doit être encodé en UTF-8.")) from exc


class OrphanForm(CashForm):
    category = forms.ChoiceField(label=_("Nature"), choices=Orphan.Category.choices)
    amount = forms.DecimalField(label=_("Montant (€)"), min_value=0, decimal_places=2)
    initial_stake = forms.DecimalField(label=_("Mise initiale (€)"), min_value=0, decimal_places=2, required=False)
    winnings = forms.DecimalField(label=_("Gains cumulés (€)"), min_value=0, decimal_places=2, required=False)
    place = forms.CharField(label=_("Lieu"), max_length=100)
    found_by = forms.CharField(label=_("Trouvé par"), max_length=150)
    witness = forms.CharField(label=_("Témoin"), max_length=150, required=False)
    paid_into = forms.CharField(label=_("Versé à (caisse ou tirelire n°)"), max_length=60)


class RestitutionForm(CashForm):
    amount = forms.DecimalField(label=_("Montant restitué (€)"), min_value=0, decimal_places=2)
    name = forms.CharField(label=_("Nom du bénéficiaire"), max_length=150)
    address = forms.CharField(label=_("Adresse"), max_length=300)
    proof = forms.CharField(label=_("Justificatif produit"), max_length=300)


class LevyMonthForm(CashForm):
    year = forms.IntegerField(label=_("Année"), min_value=2000)
    month = forms.IntegerField(label=_("Mois"), min_value=1, max_value=12)
    slot_total = forms.DecimalField(label=_("Total du modèle 35 (machines à sous, €)"), decimal_places=2)


# --- bad beat jackpot (COUNT-44 to COUNT-48, INC-15) ----------------------------------------------

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class BadBeatConfigForm(CashForm):
    starting_value = forms.DecimalField(label=_("Valeur de départ (€)"), min_value=0, decimal_places=2)
    increment_kind = forms.ChoiceField(label=_("Incrément"), choices=BadBeatConfig.Increment.choices)
    increment_value = forms.DecimalField(label=_("Montant ou taux de l'incrément"), min_value=0, decimal_places=2)
    rounding = forms.CharField(label=_("Mode d'arrondi"), max_length=200)
    side_pot_rule = forms.CharField(label=_("Retenue en cas de pots extérieurs"), max_length=250)
    minimum_pot = forms.DecimalField(label=_("Pot minimum du règlement intérieur (€)"), min_value=0, decimal_places=2)
    restart = forms.ChoiceField(label=_("Redémarrage après un gain"), choices=BadBeatConfig.Restart.choices)
    reassign = forms.BooleanField(label=_("Réaffecter l'incrément du bad beat jackpot arrêté"), required=False)


class BadBeatFinalStopForm(CashForm):
    minister_notified_at = forms.DateTimeField(label=_("Ministre de l'intérieur informé le"), widget=DATETIME)
    minister_reference = forms.CharField(label=_("Référence de l'information du ministre"), max_length=120)


class BadBeatBreakdownForm(CashForm):
    down_at = forms.DateTimeField(label=_("Heure de la panne"), widget=DATETIME)
    police_informed_at = forms.DateTimeField(label=_("Police judiciaire informée le"), widget=DATETIME, required=False)
    police_service = forms.CharField(label=_("Service de police informé"), max_length=150, required=False)


class BadBeatRestoreForm(CashForm):
    restored_at = forms.DateTimeField(label=_("Rétabli le"), widget=DATETIME)


class BadBeatWinForm(CashForm):
    combination = forms.CharField(label=_("Combinaison"), max_length=200)
    pot = forms.DecimalField(label=_("Pot (€)"), min_value=0, decimal_places=2)
    amount = forms.DecimalField(label=_("Montant du bad beat jackpot (€)"), min_value=0, decimal_places=2)
    players_present = forms.IntegerField(label=_("Joueurs présents à la table"), min_value=1, max_value=20)
    winner_name = forms.CharField(label=_("Gagnant du lot principal (nom et prénom)"), max_length=200)
    bons = forms.CharField(
        label=_("Bons de paiement (€), un par ligne, celui du gagnant en premier"),
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    restart_value = forms.DecimalField(label=_("Valeur de redémarrage (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))

    def clean_bons(self):
        return [
            rules.money(line.strip().replace(",", "."))
            for line in self.cleaned_data["bons"].splitlines()
            if line.strip()
        ]


class TableCagnotteForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    number = forms.CharField(label=_("Cagnotte n°"), max_length=40)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class SfeAdvanceForm(CashForm):
    customer = forms.CharField(label=_("Client"), max_length=200)
    amount = forms.DecimalField(label=_("Montant (€)"), min_value=0, decimal_places=2)
    authorisation = forms.CharField(label=_("Autorisation de la SFE"), max_length=80)


class ChangeurFloatFixForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    amount = forms.DecimalField(label=_("Somme de la caisse du changeur (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class ChangeurFloatForm(CashForm):
    changeur = forms.ModelChoiceField(label=_("Changeur"), queryset=None)
    breakdown = BreakdownField(label=_("Nomenclature"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["changeur"].queryset = (
            get_user_model()
            .objects.filter(memberships__establishment=self.establishment, memberships__role=Role.CHANGEUR)
            .distinct()
        )


class BoxHolderForm(CashForm):
    employee = forms.ModelChoiceField(label=_("Employé chargé de la caisse"), queryset=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["employee"].queryset = (
            get_user_model()
            .objects.filter(
                memberships__establishment=self.establishment,
                memberships__role__in=[Role.CHEF_PARTIE, Role.EMPLOYE_RESPONSABLE, Role.CROUPIER],
            )
            .distinct()
        )


# --- modèle 16 (COUNT-58) and ticket books (COUNT-39 to COUNT-41) ------------------------------


class ChipSeriesForm(CashForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=ChipSeries.Kind.choices)
    description = forms.CharField(label=_("Description sommaire"), max_length=200)
    manufacturer = forms.CharField(label=_("Fabricant"), max_length=150)
    series_count = forms.IntegerField(label=_("Nombre de séries"), min_value=1, max_value=1_000_000)
    reserve_series = forms.IntegerField(label=_("Séries à la réserve générale"), min_value=0, max_value=1_000_000)
    pieces = forms.CharField(
        label=_("Valeurs et nombre par valeur d'une série"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Plaques et jetons : une ligne « valeur x quantité » par valeur."),
    )
    cards_per_series = forms.IntegerField(label=_("Cartes par série"), min_value=0, max_value=1_000_000, required=False)

    def clean_pieces(self):
        text = self.cleaned_data["pieces"]
        return (
            [{"value": line["value"], "quantity": line["quantity"]} for line in rules.parse_breakdown(text)]
            if text.strip()
            else []
        )

    def clean_cards_per_series(self):
        return self.cleaned_data["cards_per_series"] or 0


class ChipAllocateForm(CashForm):
    in_service_series = forms.IntegerField(label=_("Séries en service"), min_value=0, max_value=1_000_000)


class ChipCensusForm(CashForm):
    census_date = forms.DateField(label=_("Date du recensement"), widget=forms.DateInput(attrs={"type": "date"}))
    counted = forms.CharField(
        label=_("Pièces recensées"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "Une ligne par série et valeur : « n° de série  valeur  quantité » (cartes : « n° de série  0  quantité »)."
        ),
    )
    counted_by = forms.CharField(label=_("Recensé par"), max_length=300)
    account_balance = forms.DecimalField(
        label=_("Solde créditeur du compte « plaques, jetons et cartes de paiement » (€)"),
        decimal_places=2,
        max_digits=14,
    )

    def clean_counted(self):
        lines = []
        for raw in self.cleaned_data["counted"].splitlines():
            parts = raw.split()
            if not parts:
                continue
            if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
                raise forms.ValidationError(_("Ligne illisible : « %(line)s ».") % {"line": raw.strip()})
            lines.append({"series": int(parts[0]), "value": parts[1].replace(",", "."), "quantity": int(parts[2])})
        return lines


class CardTableNumberForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    serial = forms.IntegerField(label=_("Numéro d'ordre"), min_value=1, max_value=10_000)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game__in=CARD_CERCLE_GAMES)


class TicketStampForm(CashForm):
    blue_line = forms.BooleanField(
        label=_("Trait au crayon bleu tracé après les tickets de la séance précédente"), required=False
    )


class LevyMachineForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    approval_reference = forms.CharField(label=_("Agrément de la machine"), max_length=80, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game__in=CERCLE_GAMES)


class MachineHistoryForm(CashForm):
    history_total = forms.DecimalField(
        label=_("Total de l'historique édité (€)"), min_value=0, decimal_places=2, max_digits=14
    )
    printout_reference = forms.CharField(label=_("Référence de l'historique"), max_length=120, required=False)


# --- modèle 10 bis (COUNT-51) ----------------------------------------------------------------


class DeviceForm(CashForm):
    family = forms.ChoiceField(label=_("Famille"), choices=ElectronicDevice.Family.choices)
    number = forms.CharField(label=_("Appareil n°"), max_length=30)
    game = forms.CharField(label=_("Jeu pratiqué"), max_length=100)
    stations = forms.IntegerField(label=_("Postes de jeu"), min_value=1, max_value=1000)


class StationResultForm(CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    station = forms.IntegerField(label=_("Poste de jeu"), min_value=1, max_value=1000)
    avances = forms.DecimalField(label=_("Avances de la caisse (€)"), min_value=0, decimal_places=2, max_digits=14)
    physical_count = forms.DecimalField(label=_("Comptée physique (€)"), min_value=0, decimal_places=2, max_digits=14)
    units_in = forms.IntegerField(label=_("Unités entrées"), min_value=0)
    units_out = forms.IntegerField(label=_("Unités sorties"), min_value=0)
    unit_stake = forms.DecimalField(label=_("Mise unitaire (€)"), min_value=0, decimal_places=2, max_digits=8)
    tickets_issued = forms.DecimalField(label=_("Tickets émis (€)"), min_value=0, decimal_places=2, max_digits=14)
    product = forms.DecimalField(label=_("Produit (€)"), decimal_places=2, max_digits=14, required=False)


class DeviceVisaForm(ReauthMixin, CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))


class MeterStatementForm(ReauthMixin, CashForm):
    year = forms.IntegerField(label=_("Année"), min_value=2000, max_value=2100)
    month = forms.IntegerField(label=_("Mois"), min_value=1, max_value=12)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))


class CercleDayForm(CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    parties = forms.IntegerField(label=_("Parties"), min_value=0)
    levies = forms.DecimalField(
        label=_("Retenues au profit de la cagnotte (€)"), min_value=0, decimal_places=2, max_digits=14
    )


class CercleCertifyForm(ReauthMixin, CashForm):
    words = forms.CharField(label=_("Mention"), max_length=40, initial="certifié exact")


class BankerForm(CashForm):
    banker = forms.CharField(label=_("Nom du banquier"), max_length=150, required=False)
    bank = BreakdownField(label=_("Somme en banque (jetons et plaques)"))


class BaccaraBankForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    kind = forms.ChoiceField(label=_("Mention"), choices=BaccaraBank.Kind.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game=DEUX_TABLEAUX)
