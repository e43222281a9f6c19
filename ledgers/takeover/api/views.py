"""The take-over through the API: the inventories, a preview that lists every line's problem and
writes nothing, the inventory prepared (refused as a whole when a line is), signed by the
directorate, visaed by the authority, posted."""

from rest_framework import generics, status

from ledgers.core.api.actions import NoInput, ServiceAction, Signature
from ledgers.core.api.scoping import EstablishmentScoped

from .. import selectors, services
from ..domains import get_domain
from ..models import Inventory
from ..spreadsheet import rows_from_file
from . import serializers as s


def _rows(data: dict) -> list[dict]:
    if data.get("spreadsheet"):
        return rows_from_file(get_domain(data["domain"]), data["spreadsheet"])
    return data["rows"]


class InventoryList(EstablishmentScoped, generics.ListAPIView):
    queryset = Inventory.objects.all()
    serializer_class = s.TakeoverInventorySerializer

    def scoped_queryset(self):
        return selectors.inventories(self.establishment)


class InventoryDetail(EstablishmentScoped, generics.RetrieveAPIView):
    queryset = Inventory.objects.all()
    serializer_class = s.TakeoverInventorySerializer

    def scoped_queryset(self):
        return selectors.inventories(self.establishment)


class InventoryPreview(ServiceAction):
    """Every line's problem (line number, column, message, requirement), as preparing the
    inventory would meet them; nothing is written."""

    input_serializer = s.TakeoverInventoryInput
    output_serializer = s.TakeoverPreviewSerializer
    answer = status.HTTP_200_OK

    def perform(self, data, **kwargs):
        problems = selectors.inventory_problems(
            establishment=self.establishment, domain=data["domain"], rows=_rows(data)
        )
        return {"problems": problems}


class InventoryCreate(ServiceAction):
    input_serializer = s.TakeoverInventoryInput
    output_serializer = s.TakeoverInventorySerializer

    def perform(self, data, **kwargs):
        return services.takeover_prepare(
            establishment=self.establishment,
            domain=data["domain"],
            paper_register=data["paper_register"],
            rows=_rows(data),
            actor=self.request.user,
        )


class InventoryAction(ServiceAction):
    queryset = Inventory.objects.all()
    output_serializer = s.TakeoverInventorySerializer

    def scoped_queryset(self):
        return selectors.inventories(self.establishment)


class InventorySign(InventoryAction):
    """The directorate's signature of the inventory it reviewed (password again)."""

    input_serializer = Signature

    def perform(self, data, **kwargs):
        return services.takeover_sign(inventory=self.get_object(), actor=self.request.user)


class InventoryVisa(InventoryAction):
    """The authority's visa, where the texts give it one over the domain (password again)."""

    input_serializer = s.TakeoverVisaInput

    def perform(self, data, **kwargs):
        return services.takeover_visa(inventory=self.get_object(), actor=self.request.user, statement=data["statement"])


class InventoryPost(InventoryAction):
    input_serializer = NoInput

    def perform(self, data, **kwargs):
        return services.takeover_post(inventory=self.get_object(), actor=self.request.user)
