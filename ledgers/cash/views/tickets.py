"""Pages for ticket books, their stamps and the levy machines."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ledgers.core.exports import ListExportMixin

from .. import forms, services
from ..models import CardTableNumber, LevyMachine, TicketBook
from ..services import (
    tickets,
)
from .common import CashFormView


class TicketBookView(CashFormView):
    form_class = forms.TicketBookForm
    menu_act = "ticket_book"
    title = _("Mise en service d'un carnet de tickets")

    def perform(self, form):
        return services.ticket_book_register(actor=self.request.user, **form.cleaned_data)


class TicketsView(ListExportMixin, CashFormView):
    """Register of the ticket books: the card-table number series, the books and their stamps, the
    levy machines (each list exported); the form numbers a card table."""

    form_class = forms.CardTableNumberForm
    template_name = "cash/tickets.html"
    title = _("Carnets de tickets et numéros des tables de cartes")
    submit = _("Inscrire le numéro d'ordre")

    def lists(self) -> dict:
        est = self.establishment
        return {
            "numbers": CardTableNumber.objects.filter(table__establishment=est).select_related("table"),
            "books": TicketBook.objects.filter(establishment=est, finished_on__isnull=True).select_related("table"),
            "machines": LevyMachine.objects.filter(table__establishment=est).select_related("table"),
        }

    def export_lists(self):
        lists = self.lists()
        return {
            "numeros-tables-cartes": (
                [_("Saison commençant le"), _("Numéro d'ordre"), _("Table")],
                ((f"{n.season:%d/%m/%Y}", n.serial, str(n.table)) for n in lists["numbers"]),
            ),
            "carnets-tickets": (
                [_("Carnet"), _("Table"), _("Prochain ticket à détacher")],
                ((str(b), b.table.number, b.next_number) for b in lists["books"]),
            ),
            "machines-retenue": (
                [_("Table"), _("Agrément de la machine")],
                ((str(m.table), m.approval_reference) for m in lists["machines"]),
            ),
        }

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            **self.lists(), unnumbered=tickets.unnumbered_card_tables(self.establishment), **kwargs
        )

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.card_table_number(actor=self.request.user, **form.cleaned_data)


class TicketStampView(CashFormView):
    form_class = forms.TicketStampForm
    submit = _("Apposer le timbre à date")

    @cached_property
    def book(self) -> TicketBook:
        return get_object_or_404(TicketBook, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Timbre à date du début de séance — carnet %(book)s, ticket n° %(first)s") % {
            "book": self.book,
            "first": self.book.next_number,
        }

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.ticket_seance_stamp(book=self.book, actor=self.request.user, **form.cleaned_data)


class LevyMachineView(CashFormView):
    form_class = forms.LevyMachineForm
    title = _("Machine automatique agréée d'enregistrement des retenues")

    def get_success_url(self) -> str:
        return reverse("cash:tickets")

    def perform(self, form):
        return tickets.levy_machine_activate(actor=self.request.user, **form.cleaned_data)


class MachineHistoryView(CashFormView):
    form_class = forms.MachineHistoryForm
    submit = _("Inscrire la cagnotte calculée")

    @property
    def title(self):
        return _("Historique de la machine et cagnotte calculée — table %(table)s") % {
            "table": self.session.table.number
        }

    def perform(self, form):
        return tickets.cagnotte_machine_compute(session=self.session, actor=self.request.user, **form.cleaned_data)
