"""Rules pages: the assistant (/rules/), each book's contents, a page per passage, the glossary."""

from __future__ import annotations

import html

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString, mark_safe

from pacg_site.errors import DomainError

from .assistant.vectors import progress, words_only_notice
from .models import Passage, Rulebook
from .selectors import ask


def ask_page(request: HttpRequest) -> HttpResponse:
    question = request.GET.get("q", "")
    game = request.GET.get("game") or None
    books = [b for b in request.GET.getlist("book") if b]
    context: dict = {"question": question, "game": game or "", "books": Rulebook.objects.all(), "selected": books}
    vectors = progress()
    if not vectors.ready:
        context["notice"] = words_only_notice(vectors)
    status = 200
    if question.strip():
        try:
            context["answer"] = ask(question, game=game, books=books)
        except DomainError as error:
            context["error"] = error.message
            status = 400
    return render(request, "rules/ask.html", context, status=status)


def book_page(request: HttpRequest, slug: str) -> HttpResponse:
    book = get_object_or_404(Rulebook, slug=slug)
    return render(request, "rules/book.html", {"book": book, "passages": book.passages.shown()})


def linked_text(passage: Passage) -> SafeString:
    """The passage's text, escaped, with its cross-references ("see Dying on page 13") as links."""
    out, last = [], 0
    for link in sorted(passage.links, key=lambda link: link["start"]):
        out.append(html.escape(passage.text[last : link["start"]]))
        label = html.escape(passage.text[link["start"] : link["end"]])
        out.append(f'<a href="/rules/{passage.book.slug}/{link["anchor"]}/">{label}</a>')
        last = link["end"]
    out.append(html.escape(passage.text[last:]))
    return mark_safe("".join(out).replace("\n", "<br>"))  # noqa: S308 - every piece is escaped above


def passage_page(request: HttpRequest, slug: str, anchor: str) -> HttpResponse:
    passage = Passage.objects.shown().filter(book__slug=slug, anchor=anchor).first()
    if passage is None:
        raise Http404(f"No passage {anchor} in {slug}")
    siblings = list(passage.book.passages.filter(order__in=[passage.order - 1, passage.order + 1]).shown())
    return render(
        request,
        "rules/passage.html",
        {
            "passage": passage,
            "text": linked_text(passage),
            "previous": next((p for p in siblings if p.order < passage.order), None),
            "next": next((p for p in siblings if p.order > passage.order), None),
        },
    )


def glossary_page(request: HttpRequest) -> HttpResponse:
    entries = Passage.objects.filter(kind="glossary").shown().order_by("heading", "book__order")
    return render(request, "rules/glossary.html", {"entries": entries})
