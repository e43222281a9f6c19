"""Pages for the monitoring system's records."""

from django.utils.translation import gettext_lazy as _

from ledgers.core.exports import ListExportMixin

from .. import forms, selectors, services
from .common import ServiceFormView


class OrphanView(ServiceFormView):
    form_class = forms.OrphanForm
    title = _("Orphelin")

    def perform(self, form):
        return services.orphan_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)


class FilesCopyView(ServiceFormView):
    form_class = forms.FilesCopyForm
    title = _("Copie des fichiers au Secrétariat Général")

    def perform(self, form):
        return services.files_copy_deliver(
            establishment=self.establishment, actor=self.request.user, received_by=form.cleaned_data["received_by"]
        )


class EventsImportView(ListExportMixin, ServiceFormView):
    """The import of the monitoring system's events, above the events last imported (all of them
    exported)."""

    form_class = forms.EventsForm
    title = _("Import des événements du système de surveillance")
    submit = _("Importer")
    template_name = "slots/events.html"
    export_name = "evenements"

    def get_queryset(self):
        return selectors.recent_events(self.establishment, limit=None)

    def export_headers(self) -> list:
        return [_("Machine"), _("Événement"), _("Survenu le"), _("Expliqué par"), _("Clé sortie"), _("Signalement")]

    def export_rows(self, events):
        for event in events:
            explained = event.intervention or event.releve or event.ram_clear
            key = f"{event.key_issue.key.code} — {event.key_issue.holder}" if event.key_issue else ""
            occurred = f"{self.establishment.localtime(event.occurred_at):%d/%m/%Y %H:%M}"
            yield (event.machine.number, event.get_kind_display(), occurred, str(explained or ""), key, event.flag)

    def get_context_data(self, **kwargs):
        return super().get_context_data(events=selectors.recent_events(self.establishment), **kwargs)

    def perform(self, form):
        return services.monitoring_events_import(
            establishment=self.establishment, rows=form.cleaned_data["file"], actor=self.request.user
        )

    def get_success_message(self) -> str:
        flagged = sum(1 for event in self.result if event.flag)
        return str(_("%(n)s événements importés, %(f)s non expliqués") % {"n": len(self.result), "f": flagged})
