"""Staff edit cards here; saves go through the service so search facts and the index follow,
and bulk imports run as a Celery task with a progress bar."""

from __future__ import annotations

import yaml
from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse

from play.engine.carddata import validate_effects

from .models import Card, CardSet, ImportJob
from .services import request_reindex, save_card
from .tasks import progress_key, run_import_job


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "game", "kind", "language", "homebrew"]
    list_filter = ["game", "kind", "homebrew"]
    search_fields = ["name", "code"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        super().save_model(request, obj, form, change)
        request_reindex()


class CardForm(forms.ModelForm):
    """The card, with its `effects` (its powers in the play engine's vocabulary) as YAML, checked
    as an import checks them."""

    effects = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 90, "spellcheck": "false"}),
        help_text="Powers for the play engine, as in a card data file's effects section "
        "(docs/card-data-format.md). Empty: players declare the card's powers when they play it.",
    )

    class Meta:
        model = Card
        exclude: list[str] = []

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        effects = (self.instance.data or {}).get("effects") if self.instance.pk else None
        if effects:
            self.fields["effects"].initial = yaml.safe_dump(effects, sort_keys=False, allow_unicode=True)

    def clean_effects(self):  # type: ignore[no-untyped-def]
        text = self.cleaned_data["effects"].strip()
        if not text:
            return None
        try:
            return validate_effects(yaml.safe_load(text))
        except yaml.YAMLError as error:
            raise forms.ValidationError(f"not YAML: {error}") from None
        except ValueError as error:
            raise forms.ValidationError(str(error)) from None


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardForm
    list_display = ["name", "type", "level", "card_set", "language"]
    list_filter = ["card_set__game", "type", "card_set"]
    search_fields = ["name", "uid"]
    readonly_fields = ["uid", "name_folded", "name_words", "power_words", "updated_at"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        data = dict(obj.data or {})
        if form.cleaned_data.get("effects"):
            data["effects"] = form.cleaned_data["effects"]
        else:
            data.pop("effects", None)
        obj.data = data
        with transaction.atomic():
            if not obj.uid:
                obj.uid = f"{obj.card_set.code}.{obj.slug}"
            save_card(card=obj)
            request_reindex()

    def delete_model(self, request, obj):  # type: ignore[no-untyped-def]
        super().delete_model(request, obj)
        request_reindex()


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A card data file: .yaml, .yml, .json or .csv (docs/card-data-format.md)")

    def clean_file(self):  # type: ignore[no-untyped-def]
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".yaml", ".yml", ".json", ".csv")):
            raise forms.ValidationError("Use a .yaml, .yml, .json or .csv file.")
        return upload


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    list_display = ["filename", "status", "created_at", "created_by"]
    readonly_fields = ["filename", "status", "total", "processed", "summary", "errors", "created_by", "created_at"]
    change_list_template = "admin/cards/importjob/change_list.html"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def get_urls(self):  # type: ignore[no-untyped-def]
        return [
            path("upload/", self.admin_site.admin_view(self.upload_view), name="cards_importjob_upload"),
            path(
                "<int:job_id>/progress/",
                self.admin_site.admin_view(self.progress_view),
                name="cards_importjob_progress",
            ),
            path("<int:job_id>/watch/", self.admin_site.admin_view(self.watch_view), name="cards_importjob_watch"),
            *super().get_urls(),
        ]

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        if not request.user.has_perm("cards.add_card"):
            messages.error(request, "You may not import cards.")
            return redirect("admin:index")
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            with transaction.atomic():
                job = ImportJob.objects.create(created_by=request.user, filename=upload.name, upload=upload)
                transaction.on_commit(lambda: run_import_job.delay(job.pk))
            return redirect("admin:cards_importjob_watch", job_id=job.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Import cards"}
        return render(request, "admin/cards/importjob/upload.html", context)

    def watch_view(self, request: HttpRequest, job_id: int) -> HttpResponse:
        job = get_object_or_404(ImportJob, pk=job_id)
        context = {
            **self.admin_site.each_context(request),
            "job": job,
            "title": f"Importing {job.filename}",
            "progress_url": reverse("admin:cards_importjob_progress", args=[job.pk]),
        }
        return render(request, "admin/cards/importjob/watch.html", context)

    def progress_view(self, request: HttpRequest, job_id: int) -> JsonResponse:
        from django.core.cache import cache

        job = get_object_or_404(ImportJob, pk=job_id)
        processed, total = job.processed, job.total
        if job.status in {ImportJob.Status.PENDING, ImportJob.Status.RUNNING}:
            processed, total = cache.get(progress_key(job.pk), (0, 0))
        percent = 100 if job.status == ImportJob.Status.DONE else (int(100 * processed / total) if total else 0)
        return JsonResponse(
            {
                "status": job.status,
                "processed": processed,
                "total": total,
                "percent": percent,
                "summary": job.summary,
                "errors": job.errors[:50],
            }
        )
