"""Forms of the table cash pages. Nomenclatures are typed one line per denomination:
"valeur x quantité [jeton|plaque|billet]"."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin
from ledgers.core.models import Location, LocationKind
from ledgers.core.roles import Role

from . import rules
from .models import BadBeatConfig, Orphan, SlipBook, TicketBook
from .selectors import RAKE_GAMES

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
    kind = forms.ChoiceField(label=_("Nature"), choices=[("initial", _("Avance initiale")),
                                                         ("top_up", _("Avance complémentaire"))])
    breakdown = BreakdownField(label=_("Nomenclature"))
    box_number = forms.CharField(label=_("Caisse n°"), max_length=20, required=False)
    transport_box = forms.CharField(label=_("Boîte de transport"), max_length=40, required=False)
    counted_by = forms.CharField(label=_("Compté par (croupier)"), max_length=150, required=False)
    called_aloud = forms.BooleanField(label=_("Somme annoncée à haute voix"), required=False)
    carry_note = forms.CharField(label=_("Écart avec la comptée précédente"), widget=forms.Textarea(attrs={"rows": 2}),
                                 required=False)
    carnet_on_table = forms.BooleanField(
        label=_("Carnet d'avances posé sur la table devant le chef de partie ou le chef de table"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.establishment.jurisdiction == "MC":
            for name in ("kind", "box_number", "transport_box", "counted_by", "called_aloud", "carnet_on_table"):
                del self.fields[name]
            self.add_countersignature("receiver", _("Chef de table qui reçoit"))
        else:
            self.add_countersignature("receiver", _("Chef de table ou employé désigné qui reçoit la caisse"),
                                      required=False)


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
        self.fields["desk"].queryset = Location.objects.filter(establishment=self.establishment,
                                                               kind=LocationKind.CAISSE_CENTRALE)


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
    present = forms.CharField(label=_("Employés de la table présents (un par ligne)"), required=False,
                              widget=forms.Textarea(attrs={"rows": 3}))
    called_aloud = forms.BooleanField(label=_("Encaisse annoncée à haute voix"), required=False)
    count_room = forms.BooleanField(label=_("Comptée en salle de comptage"), required=False)
    cctv_reference = forms.CharField(label=_("Caméra et enregistrement de vidéoprotection"), max_length=120,
                                     required=False)


class CertifyForm(ReauthMixin, CashForm):
    words = forms.CharField(label=_("Mention"), max_length=40, initial="exact")
    encaisse = forms.DecimalField(label=_("Encaisse retenue après recomptage (€)"), decimal_places=2, required=False)
    resolution = forms.CharField(label=_("Explication de l'écart"), widget=forms.Textarea(attrs={"rows": 2}),
                                 required=False)
    insurance_premiums = forms.DecimalField(label=_("Primes d'assurance refait (€)"), min_value=0, decimal_places=2,
                                            required=False)

    def __init__(self, *args, session=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Only MC trente et quarante takes refait insurance premiums (COUNT-10).
        if session is None or session.table.game != "trente_quarante" or self.establishment.jurisdiction != "MC":
            del self.fields["insurance_premiums"]


class RakeForm(forms.Form):
    game = forms.ChoiceField(label=_("Jeu"), choices=[(g, g.replace("_", " ").title()) for g in RAKE_GAMES])
    cave = forms.DecimalField(label=_("Cave initiale (€)"), min_value=0, decimal_places=2)
    pot = forms.DecimalField(label=_("Montant effectif du pot (€)"), min_value=0, decimal_places=2)
    recorded = forms.DecimalField(label=_("Cagnotte prélevée (€, facultatif)"), min_value=0, decimal_places=2,
                                  required=False)


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

    detached = forms.CharField(label=_("Dernier ticket détaché de chaque carnet"), widget=forms.Textarea(
        attrs={"rows": 3}), help_text=_("Une ligne par carnet : « numéro de couverture  dernier ticket », "
                                        "par ex. « TH1 140 »."))

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
                raise forms.ValidationError(_("Ligne illisible ou carnet inconnu à cette table : « %(line)s ».")
                                            % {"line": raw.strip()})
            lines.append({"book": books[parts[0]], "last_number": int(parts[1])})
        return lines


class CagnotteCountForm(CashForm):
    breakdown = BreakdownField(label=_("Cagnotte comptée"))
    words = forms.CharField(label=_("Mention"), max_length=40, initial="certifié exact", required=False)
    balancing_ticket = forms.IntegerField(label=_("Dernier ticket d'équilibre (col. 13)"), min_value=1,
                                          required=False)


class BadBeatForm(CashForm):
    counted = forms.DecimalField(label=_("Cagnotte du bad beat jackpot comptée (€)"), min_value=0, decimal_places=2)
    statement = forms.DecimalField(label=_("Relevé informatique (€)"), min_value=0, decimal_places=2)
    displayed = forms.DecimalField(label=_("Montant affiché en fin de séance (€)"), min_value=0, decimal_places=2)
    present = forms.CharField(label=_("Employés de la table présents (un par ligne)"),
                              widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))


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
    police_informed_at = forms.DateTimeField(label=_("Police judiciaire informée le"), widget=DATETIME,
                                             required=False)
    police_service = forms.CharField(label=_("Service de police informé"), max_length=150, required=False)


class BadBeatRestoreForm(CashForm):
    restored_at = forms.DateTimeField(label=_("Rétabli le"), widget=DATETIME)


class BadBeatWinForm(CashForm):
    combination = forms.CharField(label=_("Combinaison"), max_length=200)
    pot = forms.DecimalField(label=_("Pot (€)"), min_value=0, decimal_places=2)
    amount = forms.DecimalField(label=_("Montant du bad beat jackpot (€)"), min_value=0, decimal_places=2)
    players_present = forms.IntegerField(label=_("Joueurs présents à la table"), min_value=1, max_value=20)
    winner_name = forms.CharField(label=_("Gagnant du lot principal (nom et prénom)"), max_length=200)
    bons = forms.CharField(label=_("Bons de paiement (€), un par ligne, celui du gagnant en premier"),
                           widget=forms.Textarea(attrs={"rows": 5}))
    restart_value = forms.DecimalField(label=_("Valeur de redémarrage (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))

    def clean_bons(self):
        return [rules.money(line.strip().replace(",", ".")) for line in self.cleaned_data["bons"].splitlines()
                if line.strip()]


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
        self.fields["changeur"].queryset = get_user_model().objects.filter(
            memberships__establishment=self.establishment, memberships__role=Role.CHANGEUR).distinct()


class BoxHolderForm(CashForm):
    employee = forms.ModelChoiceField(label=_("Employé chargé de la caisse"), queryset=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["employee"].queryset = get_user_model().objects.filter(
            memberships__establishment=self.establishment,
            memberships__role__in=[Role.CHEF_PARTIE, Role.EMPLOYE_RESPONSABLE, Role.CROUPIER]).distinct()
