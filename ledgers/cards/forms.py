"""Forms of the card flows. They only shape the input; the services decide (and refuse)."""

from django import forms
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin
from ledgers.core.forms import EstablishmentForm, StaffChoiceField, staff_choices
from ledgers.core.models import Room, Seance
from ledgers.core.roles import Role
from ledgers.core.selectors import depots, open_seances
from ledgers.custody.models import WITHDRAWN_STATUSES, DestructionSession, ItemStatus, PurchaseOrder, Supplier
from ledgers.incidents.models import IncidentNotice

from . import selectors
from .domains import CARDS
from .models import Anomaly, CardUnit, Category, ShuffleMethod, UnitType
from .services import TABLE_STAFF, ReceivedDeck, ReceivedUnit

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class UnitChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, unit: CardUnit) -> str:
        return _unit_label(unit)


class UnitsChoiceField(forms.ModelMultipleChoiceField):
    widget = forms.SelectMultiple(attrs={"size": 8})

    def label_from_instance(self, unit: CardUnit) -> str:
        return _unit_label(unit)


def _unit_label(unit: CardUnit) -> str:
    where = (
        str(unit.table_session.table)
        if unit.table_session_id
        else (str(unit.location) if unit.location_id else (str(unit.parent.location) if unit.parent_id else ""))
    )
    colour = f" — {unit.back_colour}" if unit.back_colour else ""
    return f"{unit}{colour} — {where}"


# --- Suppliers and orders ------------------------------------------------------------------------


class SupplierApprovalForm(EstablishmentForm):
    """A maker's approval as it now stands (CARD-32)."""

    approval_reference = forms.CharField(
        label=_("Référence de l'agrément"),
        max_length=200,
        help_text=_("France : agrément du ministre de l'intérieur (art. 39)."),
    )
    approval_issuer = forms.CharField(label=_("Autorité d'agrément"), max_length=200, required=False)
    approved_from = forms.DateField(label=_("Agréé du"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    approved_until = forms.DateField(
        label=_("Agréé jusqu'au"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class SupplierForm(SupplierApprovalForm):
    name = forms.CharField(label=_("Raison sociale du fabricant"), max_length=200)
    field_order = ("name",)

    def setup(self) -> None:
        self.fields["approval_reference"].required = False


class OrderForm(EstablishmentForm):
    supplier = forms.ModelChoiceField(label=_("Fabricant"), queryset=Supplier.objects.none())
    carnet = forms.CharField(label=_("Carnet modèle 21 n°"), max_length=40, required=False)
    sixain = forms.IntegerField(label=_("Sixains"), min_value=0, initial=0)
    huitain = forms.IntegerField(label=_("Huitains"), min_value=0, initial=0)
    jeu = forms.IntegerField(label=_("Jeux à l'unité"), min_value=0, initial=0)

    def setup(self) -> None:
        self.fields["supplier"].queryset = Supplier.objects.filter(establishment=self.establishment, domain=CARDS.code)
        if self.establishment.jurisdiction == "FR":
            del self.fields["huitain"], self.fields["jeu"]
        else:
            self.fields["carnet"].label = _("Carnet n° (facultatif)")

    def lines(self) -> list[dict]:
        return [
            {"category": c, "quantity": self.cleaned_data[c]}
            for c, _label in Category.choices
            if self.cleaned_data.get(c)
        ]


class OrderVisaForm(ReauthMixin, EstablishmentForm):
    statement = forms.CharField(label=_("Mention du visa"), max_length=300, initial=_("Vu"))
    field_order = ["statement", "password", "otp_token"]


class ConfirmForm(EstablishmentForm):
    confirm = forms.BooleanField(label=_("Je confirme."))


# --- Receipt, transfer, day close ----------------------------------------------------------------


class ReceiveForm(EstablishmentForm):
    order = forms.ModelChoiceField(label=_("Bon de commande"), queryset=PurchaseOrder.objects.none(), required=False)
    supplier = forms.ModelChoiceField(label=_("Fabricant"), queryset=Supplier.objects.none())
    location = forms.ModelChoiceField(label=_("Dépôt de réception"), queryset=selectors.Location.objects.none())
    unit_type = forms.ChoiceField(label=_("Type d'unité"), choices=UnitType.choices, initial=UnitType.SIXAIN)
    colour_a = forms.CharField(label=_("Couleur du dos (1re moitié des jeux)"), max_length=30, initial=_("rouge"))
    colour_b = forms.CharField(
        label=_("Couleur du dos (2e moitié des jeux)"), max_length=30, initial=_("bleu"), required=False
    )
    numbers = forms.CharField(
        label=_("Numéros d'ordre"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
        help_text=_(
            "Une unité par ligne : le numéro du sixain (ou huitain) suivi des numéros de ses jeux, séparés "
            "par des espaces ; pour un jeu à l'unité, son seul numéro."
        ),
    )
    unnumbered = forms.IntegerField(
        label=_("Sixains non numérotés (banque à tout va)"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("Un numéro interne est attribué et l'unité est signalée (AMB-05)."),
    )
    plain_back = forms.BooleanField(label=_("Tarotage à teinte unie"), initial=True, required=False)
    design = forms.CharField(label=_("Modèle / marque"), max_length=100, required=False)
    hidden_mark = forms.BooleanField(label=_("Marque indécelable à l'œil nu"), required=False)
    hidden_mark_description = forms.CharField(label=_("Description de la marque"), max_length=200, required=False)
    delivery_note = forms.CharField(label=_("Bon de livraison"), max_length=100, required=False)

    def setup(self) -> None:
        est = self.establishment
        self.fields["order"].queryset = selectors.purchase_orders(est).filter(
            status__in=[PurchaseOrder.Status.VISAED, PurchaseOrder.Status.SENT, PurchaseOrder.Status.ISSUED]
        )
        self.fields["supplier"].queryset = Supplier.objects.filter(establishment=est, domain=CARDS.code)
        self.fields["location"].queryset = depots(est, CARDS.depot_kinds)
        if est.jurisdiction == "FR":
            self.fields["unit_type"].choices = [(UnitType.SIXAIN, UnitType.SIXAIN.label)]
            del self.fields["unnumbered"]

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("numbers", "").strip() and not cleaned.get("unnumbered"):
            raise ValidationError(_("Indiquez les numéros d'ordre des unités reçues."))
        return cleaned

    def units(self) -> list[ReceivedUnit]:
        data = self.cleaned_data
        unit_type = data["unit_type"]
        count = {"sixain": 6, "huitain": 8, "jeu": 1}[unit_type]
        colours = [data["colour_a"].strip()] * (count // 2 or 1) + [(data["colour_b"] or data["colour_a"]).strip()] * (
            count - (count // 2 or 1)
        )
        common = {
            "plain_back": data["plain_back"],
            "design": data["design"],
            "hidden_mark": data["hidden_mark"],
            "hidden_mark_description": data["hidden_mark_description"],
        }
        units = []
        for line in data["numbers"].splitlines():
            numbers = line.split()
            if not numbers:
                continue
            if unit_type == UnitType.DECK:
                units.append(ReceivedUnit(unit_type=unit_type, serial=numbers[0], back_colour=colours[0], **common))
            else:
                decks = tuple(
                    ReceivedDeck(serial, colours[i] if i < count else colours[-1])
                    for i, serial in enumerate(numbers[1:])
                )
                units.append(ReceivedUnit(unit_type=unit_type, serial=numbers[0], decks=decks, **common))
        for _n in range(data.get("unnumbered") or 0):
            decks = tuple(ReceivedDeck("", colours[i]) for i in range(count)) if unit_type != UnitType.DECK else ()
            units.append(
                ReceivedUnit(unit_type=unit_type, decks=decks, back_colour=colours[0], unnumbered=True, **common)
            )
        return units


class TransferForm(EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités transférées"), queryset=CardUnit.objects.none())
    to_location = forms.ModelChoiceField(label=_("Dépôt de destination"), queryset=selectors.Location.objects.none())
    received_by = forms.CharField(label=_("Reçu par"), max_length=150, required=False)

    def setup(self) -> None:
        self.fields["units"].queryset = selectors.depot_units(self.establishment)
        self.fields["to_location"].queryset = depots(self.establishment, CARDS.depot_kinds)


class DepotDayForm(EstablishmentForm):
    date = forms.DateField(label=_("Journée à arrêter"), widget=forms.DateInput(attrs={"type": "date"}))


# --- Tables ----------------------------------------------------------------------------------


class IssueForm(EstablishmentForm):
    table_session = forms.ModelChoiceField(label=_("Table (partie)"), queryset=selectors.TableSession.objects.none())
    units = UnitsChoiceField(
        label=_("Unités à sortir"),
        queryset=CardUnit.objects.none(),
        help_text=_("Un sixain entier, ou des jeux d'un sixain pour un jeu à un seul jeu."),
    )
    received_by = forms.CharField(label=_("Reçu par (croupier ou chef de table)"), max_length=150)

    def setup(self) -> None:
        self.fields["table_session"].queryset = selectors.live_sessions(self.establishment)
        self.fields["units"].queryset = selectors.issuable_units(self.establishment)
        self.fields["received_by"] = StaffChoiceField(
            label=self.fields["received_by"].label, establishment=self.establishment, roles=TABLE_STAFF
        )


class UnsealForm(EstablishmentForm):
    unit = UnitChoiceField(label=_("Unité"), queryset=CardUnit.objects.none())
    seal_intact = forms.BooleanField(label=_("Bande de contrôle intacte"), required=False, initial=True)
    video_camera = forms.CharField(label=_("Caméra"), max_length=60, required=False)
    video_reference = forms.CharField(label=_("Référence de l'enregistrement vidéo"), max_length=120, required=False)
    notes = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        self.fields["unit"].queryset = selectors.issued_units(self.establishment).filter(is_new=True)
        if self.establishment.jurisdiction == "FR":
            self.fields["video_camera"].required = self.fields["video_reference"].required = True


# Who is present at a control at the table: the chef de table, the inspecteur.
WITNESSES = (Role.CHEF_TABLE, Role.CHEF_PARTIE, Role.INSPECTEUR)


class TableControlForm(EstablishmentForm):
    unit = UnitChoiceField(label=_("Unité"), queryset=CardUnit.objects.none())
    complete = forms.BooleanField(label=_("52 cartes par jeu (comptée)"), required=False, initial=True)
    order_intact = forms.BooleanField(label=_("Ordre du fabricant constaté"), required=False, initial=True)
    witnesses = forms.CharField(label=_("En présence de (chef de table, inspecteur)"), max_length=200, required=False)
    notes = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        # New decks are unsealed first (CARD-13, CARD-35): only the others are offered here.
        self.fields["unit"].queryset = selectors.issued_units(self.establishment).filter(pae=False, is_new=False)
        self.fields["witnesses"] = forms.MultipleChoiceField(
            label=self.fields["witnesses"].label,
            required=False,
            choices=staff_choices(self.establishment, WITNESSES, value="name")[1:],
            widget=forms.SelectMultiple(attrs={"data-searchable": ""}),
        )

    def clean_witnesses(self) -> str:
        return ", ".join(self.cleaned_data.get("witnesses") or [])


class ControlForm(EstablishmentForm):
    unit = UnitChoiceField(label=_("Unité"), queryset=CardUnit.objects.none())
    complete = forms.BooleanField(label=_("Complet"), required=False, initial=True)
    order_restored = forms.BooleanField(label=_("Remis dans l'ordre du fabricant"), required=False, initial=True)
    marks_found = forms.BooleanField(label=_("Marques constatées"), required=False)
    marks_description = forms.CharField(label=_("Description des marques"), max_length=300, required=False)
    notes = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, units, **kwargs):
        self.units_queryset = units
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        self.fields["unit"].queryset = self.units_queryset


class PAEPrepareForm(EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités au DCC"), queryset=CardUnit.objects.none())
    checked_by = forms.CharField(label=_("Vérifié par"), max_length=150)
    shuffled_by = forms.CharField(label=_("Pré-mélangé par"), max_length=150)
    method = forms.ChoiceField(label=_("Pré-mélange"), choices=ShuffleMethod.choices)
    shuffler = forms.CharField(label=_("Mélangeur (n°)"), max_length=60, required=False)
    video_camera = forms.CharField(label=_("Caméra"), max_length=60)
    video_reference = forms.CharField(label=_("Référence de l'enregistrement vidéo"), max_length=120)
    complete = forms.BooleanField(label=_("Complet"), required=False, initial=True)
    order_intact = forms.BooleanField(label=_("Ordre du fabricant vérifié"), required=False, initial=True)

    def setup(self) -> None:
        self.fields["units"].queryset = selectors.depot_units(self.establishment).filter(
            location__kind="dcc", status=ItemStatus.IN_STOCK
        )


class PAEConfirmForm(EstablishmentForm):
    unit = UnitChoiceField(label=_("Unité prête à l'emploi"), queryset=CardUnit.objects.none())
    shuffler = forms.CharField(label=_("Mélangeur utilisé (facultatif)"), max_length=60, required=False)
    notes = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        self.fields["unit"].queryset = selectors.issued_units(self.establishment).filter(pae=True)


class DesignateForm(EstablishmentForm):
    seance = forms.ModelChoiceField(label=_("Séance"), queryset=Seance.objects.none())
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    unit = UnitChoiceField(label=_("Sixain de remplacement"), queryset=CardUnit.objects.none())

    def setup(self) -> None:
        self.fields["seance"].queryset = open_seances(self.establishment)
        self.fields["room"].queryset = self.establishment.rooms.all()
        self.fields["unit"].queryset = selectors.depot_units(self.establishment).filter(
            unit_type=UnitType.SIXAIN, status=ItemStatus.IN_STOCK
        )


class ExchangeForm(EstablishmentForm):
    table_unit = UnitChoiceField(label=_("Jeu de la table"), queryset=CardUnit.objects.none())
    replacement_unit = UnitChoiceField(label=_("Jeu du sixain de remplacement"), queryset=CardUnit.objects.none())
    card = forms.CharField(label=_("Carte détériorée (rang et couleur)"), max_length=40)
    croupier = forms.CharField(label=_("Croupier"), max_length=150)
    shown_both_sides = forms.BooleanField(label=_("Carte montrée recto et verso"), required=False)

    def setup(self) -> None:
        self.fields["table_unit"].queryset = selectors.decks_at_tables(self.establishment)
        self.fields["replacement_unit"].queryset = selectors.replacement_decks(self.establishment)


class ReconcileForm(EstablishmentForm):
    note = forms.CharField(
        label=_("Rapprochement"),
        max_length=300,
        initial=_("Carte détériorée replacée dans le jeu du sixain de remplacement, retiré."),
    )


class ReturnForm(CountersignMixin, EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités rentrées"), queryset=CardUnit.objects.none())
    to_location = forms.ModelChoiceField(label=_("Dépôt"), queryset=selectors.Location.objects.none())
    returned_by = forms.CharField(label=_("Rapporté par"), max_length=150)

    def setup(self) -> None:
        self.fields["units"].queryset = selectors.issued_units(self.establishment)
        self.fields["to_location"].queryset = depots(self.establishment, CARDS.depot_kinds)
        self.fields["returned_by"] = StaffChoiceField(
            label=self.fields["returned_by"].label, establishment=self.establishment, roles=TABLE_STAFF
        )
        mc = self.establishment.jurisdiction == "MC"
        self.add_countersignature("signer", _("L'inspecteur de service"), required=mc, roles=(Role.INSPECTEUR,))


class WithdrawForm(EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités"), queryset=CardUnit.objects.none())
    status = forms.ChoiceField(
        label=_("Nouvel état"), choices=[(s, ItemStatus(s).label) for s in sorted(WITHDRAWN_STATUSES)]
    )
    reason = forms.CharField(label=_("Motif"), max_length=300)

    def setup(self) -> None:
        self.fields["units"].queryset = selectors.depot_units(self.establishment).filter(status=ItemStatus.IN_STOCK)


class AnomalyForm(EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités concernées"), queryset=CardUnit.objects.none())
    anomaly = forms.ChoiceField(label=_("Anomalie"), choices=Anomaly.choices)
    cards = forms.CharField(label=_("Carte(s)"), max_length=200)
    circumstances = forms.CharField(
        label=_("Circonstances (toutes indications utiles)"), widget=forms.Textarea(attrs={"rows": 3})
    )
    found_at = forms.DateTimeField(label=_("Constatée le"), required=False, widget=DATETIME)

    def setup(self) -> None:
        self.fields["units"].queryset = (
            selectors.units_of(self.establishment)
            .exclude(status__in=["destroyed", "neutralised", "returned_to_supplier"])
            .order_by("serial")
        )


class ReshuffleForm(EstablishmentForm):
    table_session = forms.ModelChoiceField(
        label=_("Table (réservée à un seul joueur)"), queryset=selectors.TableSession.objects.none()
    )
    reason = forms.CharField(label=_("Motif (notamment sécurité du jeu)"), widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        self.fields["table_session"].queryset = selectors.live_sessions(self.establishment).filter(status="open")


class DestructionPlanForm(EstablishmentForm):
    units = UnitsChoiceField(label=_("Unités à détruire"), queryset=CardUnit.objects.none())
    method = forms.ChoiceField(label=_("Mode"), choices=DestructionSession.Method.choices)
    planned_at = forms.DateTimeField(label=_("Prévue le"), widget=DATETIME)

    def setup(self) -> None:
        self.fields["units"].queryset = selectors.awaiting_destruction(self.establishment)
        if self.establishment.jurisdiction == "FR":
            self.fields["method"].choices = [
                (DestructionSession.Method.DESTRUCTION, DestructionSession.Method.DESTRUCTION.label)
            ]


class DestructionNotifyForm(EstablishmentForm):
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence (courriel, nom de l'agent…)"), max_length=200)


class DestructionCompleteForm(CountersignMixin, EstablishmentForm):
    withheld = UnitsChoiceField(
        label=_("Unités retenues (incomplètes, cartes marquées ou détériorées)"),
        queryset=CardUnit.objects.none(),
        required=False,
    )
    finding = forms.CharField(label=_("Constatation"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, session: DestructionSession, **kwargs):
        self.session = session
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        ids = self.session.items.values_list("object_id", flat=True)
        self.fields["withheld"].queryset = CardUnit.objects.filter(pk__in=list(ids)).order_by("serial")
        fr = self.establishment.jurisdiction == "FR"
        who = _("le fonctionnaire de police présent") if fr else _("l'agent du SCJ présent (facultatif)")
        self.add_countersignature("signer", who, required=fr)


class VerificationForm(ReauthMixin, EstablishmentForm):
    """The authority's count, one field per depot and category located now."""

    opened_by = forms.CharField(label=_("Ouvert par (détenteur de la clé)"), max_length=200, required=False)
    remarks = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        self.keys = {}
        for line in selectors.stock_statement(self.establishment).lines:
            name = f"count_{line.location_id or 'table'}_{line.category}"
            self.keys[name] = (line.location_id, line.category)
            self.fields[name] = forms.IntegerField(
                label=f"{line.place} — {Category(line.category).label}", min_value=0, initial=line.count
            )
        self.order_fields([*self.keys, "opened_by", "remarks", "password", "otp_token"])
        if self.establishment.jurisdiction == "FR":  # the holder of the cabinet's key is named (KEY-11)
            del self.fields["opened_by"]

    def counted(self) -> dict:
        return {self.keys[name]: self.cleaned_data[name] for name in self.keys}


def signer_of(form: forms.Form) -> AbstractBaseUser | None:
    return form.cleaned_data.get("signer")
