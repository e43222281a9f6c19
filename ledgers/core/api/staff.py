"""The establishment's people through the API: list them with their roles; the directorate creates
an account, grants and revokes a role, deactivates an account, each a line of the register of
authorisations; and the roles' history: who held a role on a day, which roles a person held, when."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core import accounts, passwords
from ledgers.core.accounts import HISTORY_READERS
from ledgers.core.authz import check_typed, reserved_to, roles_of
from ledgers.core.models import Membership, RolePeriod, StaffAccount
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.core.selectors import role_holders, roles_held_by, staff_of

from .errors import REFUSED
from .scoping import ESTABLISHMENT, EstablishmentScoped


class PersonSerializer(serializers.ModelSerializer):
    roles = serializers.SerializerMethodField(help_text=_("Les rôles tenus ici aujourd'hui."))
    must_set_password = serializers.SerializerMethodField(
        help_text=_("Le titulaire doit encore choisir son mot de passe.")
    )

    class Meta:
        model = get_user_model()
        fields = ("id", "username", "first_name", "last_name", "email", "is_active", "roles", "must_set_password")
        read_only_fields = fields

    def get_roles(self, user) -> list[str]:
        held = self.context.get("held")
        if held is None:
            held = self.context["held"] = _held(self.context["establishment"])
        return sorted(held.get(user.pk, ()))

    def get_must_set_password(self, user) -> bool:
        pending = self.context.get("pending")
        if pending is None:
            pending = self.context["pending"] = set(
                StaffAccount.objects.filter(must_set_password=True).values_list("user_id", flat=True)
            )
        return user.pk in pending


def _held(establishment) -> dict[int, list[str]]:
    held: dict[int, list[str]] = {}
    for user_id, role in Membership.objects.filter(establishment=establishment).values_list("user_id", "role"):
        held.setdefault(user_id, []).append(role)
    return held


class AccountInput(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150)
    email = serializers.EmailField(required=False, allow_blank=True, default="")
    roles = serializers.ListField(child=serializers.ChoiceField(choices=Role.choices), required=False, default=list)


class RoleInput(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class RoleRevokeInput(RoleInput):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ProvisionalPasswordInput(serializers.Serializer):
    password = serializers.CharField(
        write_only=True,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text=_("Mot de passe provisoire."),
    )


class InvitationSerializer(serializers.Serializer):
    valid_until = serializers.DateTimeField(help_text=_("Fin de validité du lien envoyé."))


class PasswordChangeInput(serializers.Serializer):
    old_password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})
    new_password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})


class DeactivateInput(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class StaffViewSet(EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The people of the establishment (created here, or holding or having held a role here), with
    the roles they hold now; the directorate's acts on them."""

    queryset = get_user_model().objects.all()
    serializer_class = PersonSerializer
    ordering = ("last_name", "first_name", "username")

    def scoped_queryset(self) -> QuerySet:
        if not set(roles_of(self.request.user, self.establishment)) & set(DIRECTORATE) and not (
            self.request.user.is_superuser
        ):
            raise PermissionDenied(reserved_to(DIRECTORATE, establishment=self.establishment))
        return staff_of(self.establishment)

    def _given(self, serializer_class, request: Request) -> dict:
        given = serializer_class(data=request.data, context=self.get_serializer_context())
        given.is_valid(raise_exception=True)
        check_typed(given.validated_data)
        return dict(given.validated_data)

    def _person(self, user) -> Response:
        return Response(PersonSerializer(user, context=self.get_serializer_context()).data)

    @extend_schema(request=AccountInput, responses={201: PersonSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        """Create an account, with its roles (the directorate); no password: its owner chooses it."""
        data = self._given(AccountInput, request)
        user = accounts.account_create(establishment=self.establishment, actor=request.user, **data)
        return Response(
            PersonSerializer(user, context=self.get_serializer_context()).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(request=RoleInput, responses={200: PersonSerializer, **REFUSED})
    @action(detail=True, methods=["post"], url_path="roles")
    def grant(self, request: Request, pk: int) -> Response:
        """Grant the person a role here (the directorate)."""
        data = self._given(RoleInput, request)
        user = self.get_object()
        accounts.role_grant(establishment=self.establishment, user=user, role=data["role"], actor=request.user)
        return self._person(user)

    @extend_schema(request=RoleRevokeInput, responses={200: PersonSerializer, **REFUSED})
    @action(detail=True, methods=["post"], url_path="roles/revoke")
    def revoke(self, request: Request, pk: int) -> Response:
        """Revoke a role the person holds here (the directorate); the period they held it stays, ended."""
        data = self._given(RoleRevokeInput, request)
        user = self.get_object()
        accounts.role_revoke(establishment=self.establishment, user=user, actor=request.user, **data)
        return self._person(user)

    @extend_schema(request=DeactivateInput, responses={200: PersonSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def deactivate(self, request: Request, pk: int) -> Response:
        """Deactivate the account: every role here revoked, no more sign-in nor API (the directorate)."""
        data = self._given(DeactivateInput, request)
        user = accounts.account_deactivate(
            establishment=self.establishment, user=self.get_object(), actor=request.user, **data
        )
        return self._person(user)

    @extend_schema(request=None, responses={201: InvitationSerializer, **REFUSED})
    @action(detail=True, methods=["post"], url_path="invitation")
    def invite(self, request: Request, pk: int) -> Response:
        """Mail the person a link to choose their own password, valid a limited time (the
        directorate); the link is shown to nobody else."""
        expires = passwords.account_invite(establishment=self.establishment, user=self.get_object(), actor=request.user)
        return Response(InvitationSerializer({"valid_until": expires}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ProvisionalPasswordInput, responses={200: PersonSerializer, **REFUSED})
    @action(detail=True, methods=["post"], url_path="provisional-password")
    def provisional_password(self, request: Request, pk: int) -> Response:
        """Give a person of the house a provisional password, to be replaced by its owner at their
        next sign-in (the directorate); never an outside official's."""
        data = self._given(ProvisionalPasswordInput, request)
        user = passwords.account_password_provisional(
            establishment=self.establishment, user=self.get_object(), password=data["password"], actor=request.user
        )
        return self._person(user)


class PasswordChangeView(generics.GenericAPIView):
    """Change one's own password, giving the current one (wrong guesses count towards the sign-in
    throttle); Django's password validators apply. 204 when done."""

    serializer_class = PasswordChangeInput

    @extend_schema(request=PasswordChangeInput, responses={204: None, **REFUSED})
    def post(self, request: Request) -> Response:
        given = PasswordChangeInput(data=request.data)
        given.is_valid(raise_exception=True)
        passwords.password_change(user=request.user, request=request._request, **given.validated_data)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RolePeriodSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    name = serializers.CharField(source="user.get_full_name", read_only=True)
    granted_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    ended_by = serializers.SlugRelatedField(slug_field="username", read_only=True)

    class Meta:
        model = RolePeriod
        fields = (
            "id",
            "user",
            "username",
            "name",
            "role",
            "valid_from",
            "valid_until",
            "granted_by",
            "ended_by",
            "end_reason",
        )
        read_only_fields = fields


class StaffPK(serializers.PrimaryKeyRelatedField):
    """A person of the caller's establishment (``staff_of``), by primary key."""

    def get_queryset(self):
        return staff_of(self.context["establishment"])


class RolePeriodQuery(serializers.Serializer):
    user = StaffPK(queryset=get_user_model().objects.all(), required=False)
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    on = serializers.DateField(required=False, help_text=_("Le jour (de l'établissement) où le rôle était tenu."))

    def validate(self, attrs):
        if not attrs.get("user") and not (attrs.get("role") and attrs.get("on")):
            raise serializers.ValidationError(_("Donnez une personne (user), ou un rôle (role) et un jour (on)."))
        return attrs


@extend_schema(
    parameters=[
        ESTABLISHMENT,
        OpenApiParameter("user", int, description="Une personne : tous les rôles qu'elle a tenus ici, et quand."),
        OpenApiParameter("role", str, description="Un rôle, avec « on » : qui le tenait ce jour-là."),
        OpenApiParameter("on", str, description="Le jour (AAAA-MM-JJ), avec « role »."),
    ]
)
class RolePeriodList(EstablishmentScoped, generics.ListAPIView):
    """The periods during which roles were held here: who held ``role`` on the day ``on``, or which
    roles ``user`` held, from when until when, granted and revoked by whom (the directorate and
    the authorities)."""

    serializer_class = RolePeriodSerializer
    queryset = RolePeriod.objects.all()
    ordering = ("valid_from",)

    def scoped_queryset(self) -> QuerySet:
        readers = set(HISTORY_READERS)
        if not set(roles_of(self.request.user, self.establishment)) & readers and not self.request.user.is_superuser:
            raise PermissionDenied(reserved_to(readers, establishment=self.establishment))
        query = RolePeriodQuery(data=self.request.query_params, context=self.get_serializer_context())
        query.is_valid(raise_exception=True)
        data = query.validated_data
        if data.get("user"):
            return roles_held_by(self.establishment, data["user"])
        return role_holders(self.establishment, data["role"], data["on"])
