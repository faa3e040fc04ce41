"""Ranks said in German, French, Spanish, Italian, Portuguese, Dutch, Japanese, Chinese and
Korean ("auf dem 1. Platz", "auf Platz 1", "Rang 1", "en 1re position", "classé 1er", "el 1.º
puesto", "en el puesto 1", "al 1º posto", "em 1º lugar", "op de 1e plaats", 1位, 第1名, 1위): held
to the evidence's ranks as "ranked 1st" and "took 1st place" are (docs/sweep.md, rule 3).

``local_ranks`` gives the start of the digits of each such rank in the text, and whether it is
said as one beyond doubt ("auf Platz 3": a rank, free like "ranked 3rd" when the evidence holds
no rank field) or only maybe ("Platz 3" alone is a seat as often: "Wagen 12, Platz 3"; it is
held to the evidence's ranks when it has any, and otherwise stays a small integer). A rank needs
a word of ranking beside the number: an ordinal alone ("votre 3e relance", "das 3. Mal") is no
rank, and one before a month ("1.º de diciembre", "1er décembre") is a date, read by the
scanner before this runs. Each language is read only when the text holds one of its cue words
(a substring test on the lower-cased text), so most answers pay one test per language."""

from __future__ import annotations

import re

_N = r"(\d{1,2})"     # the only group of each alternative: ``match.lastindex``
# After the digits, an ordinal's ending, by language: French "1er", "1re", "1ère", "2e",
# "2ème", "2nd", "1ᵉʳ"; Spanish, Italian and Portuguese "1.º", "1º", "1ª", "1°", "1.er", "3er";
# Dutch "3e", "1ste", "2de".
_ORD = {
    "fr": r"(?:er|re|ère|ere|e|ème|eme|nde?|ᵉʳ|ʳᵉ|ᵉ)",
    "es": r"(?:\.?[ºª°]|\.?er|\.?ra|\.?[oa])",
    "it": r"(?:\.?[ºª°]|[oa])",
    "pt": r"(?:\.?[ºª°]|[oa])",
    "nl": r"(?:e|ste|de)",
}
_END = r"(?![^\W\d_])"
_SP = r"[ \u00a0]+"

# Beyond doubt: an ordinal before a noun of ranking, or a number after a word that says a rank.
_SURE = {
    "de": re.compile(
        rf"(?i)(?<![\w.])(?<!im )(?<!im\u00a0){_N}\.{_SP}(?:Platz|Platzes|Rang|Ranges|Stelle|"
        rf"Platzierung)(?![\w])"
        rf"|(?<![\w])(?:auf|an){_SP}(?:Platz|Rang|Position|Stelle){_SP}{_N}(?![\d.,]\d)"
        rf"|(?<![\w])(?:Rang|Platzierung){_SP}{_N}(?![\d.,]\d)"),
    "fr": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['fr']}{_END}{_SP}(?:place|position|rang)(?![\w])"
        rf"|(?<![\w])(?:class[ée]e?s?|termin[ée]e?s?|finit|arrivée?s?|arrive){_SP}"
        rf"(?:(?:en|au){_SP})?{_N}{_ORD['fr']}{_END}"
        rf"|(?<![\w])(?:position|rang){_SP}(?:n°{_SP}?)?{_N}(?![\d.,]\d)"),
    "es": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['es']}{_END}{_SP}(?:puesto|lugar|posición|posicion)(?![\w])"
        rf"|(?<![\w])(?:clasificad[oa]s?|qued[óo]|termin[óo]){_SP}(?:(?:en|el){_SP})*"
        rf"{_N}{_ORD['es']}{_END}"
        rf"|(?<![\w])(?:puesto|posición|posicion){_SP}(?:n\.?º{_SP}?)?{_N}(?![\d.,]\d)"),
    "it": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['it']}{_END}{_SP}"
        rf"(?:posto|posizione|classificat[oaie]|piazzament[oi])(?![\w])"
        rf"|(?<![\w])posizione{_SP}(?:n\.?{_SP}?)?{_N}(?![\d.,]\d)"),
    "pt": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['pt']}{_END}{_SP}"
        rf"(?:lugar|posição|posicao|colocad[oa]|classificad[oa])(?![\w])"
        rf"|(?<![\w])(?:posição|posicao){_SP}(?:n\.?º{_SP}?)?{_N}(?![\d.,]\d)"),
    "nl": re.compile(
        rf"(?i)(?<![\w.]){_N}{_ORD['nl']}{_END}{_SP}(?:plaats|positie|plek)(?![\w])"
        rf"|(?<![\w])op{_SP}(?:plaats|positie|plek){_SP}{_N}(?![\d.,]\d)"),
}
# Maybe a rank: a number after a noun that names a seat as often ("Platz 3", "place 3", "plaats
# 3"; not "mettre en place 3 règles").
_MAYBE = {
    "de": re.compile(rf"(?i)(?<![\w])Platz{_SP}{_N}(?![\d.,]\d)"),
    "fr": re.compile(rf"(?i)(?<![\w])(?<!en )place{_SP}(?:n°{_SP}?)?{_N}(?![\d.,]\d)"),
    "nl": re.compile(rf"(?i)(?<![\w])(?:plaats|positie){_SP}{_N}(?![\d.,]\d)"),
}
# A word of a seat in the clause of a rank's number, before or after it: "Wagen 12, Platz 3",
# "Sie sitzen auf Platz 3", "Rang 1, Reihe 5", "voiture 12, place 3": no rank (``_seat_near``).
_SEAT = re.compile(r"(?i)(?<![\w])(?:wagen|waggon|reihe|sitz\w*|abteil|gleis|tisch|loge|voiture|"
                   r"rang[ée]e|si[èe]ges?|wagon|assis|coche|asiento|fila|carrozza|vagone|"
                   r"poltrona|assento|vag[ãa]o|rij|stoel|zitplaats|rijtuig)(?![\w])")
_CLAUSE_STOPS = ".;!?\n"
# Japanese 1位 (位 counts people in Chinese: 3位客人), Korean 1위, and Chinese 第1名, 第1位,
# 排名第1 (名 counts people after a bare number: 3名学生).
_CJK_SURE = {
    "ja": re.compile(r"(?<![\d.,])(\d{1,2})[ \u00a0]?位(?![数數])"),
    "ko": re.compile(r"(?<![\d.,])(\d{1,2})[ \u00a0]?위(?![해한])"),
    "zh": re.compile(r"第[ \u00a0]?(\d{1,2})[ \u00a0]?[名位]|排名[ \u00a0]?第?[ \u00a0]?"
                     r"(\d{1,2})(?![\d.,]\d)"),
}
# The cue words of each language (lower case): its reader runs only when the text holds one.
_CUES = {
    "de": ("platz", "rang", "stelle", "position", "platzierung"),
    "fr": ("place", "position", "rang", "class", "termin", "fini", "arriv"),
    "es": ("puesto", "lugar", "posici", "clasific", "qued", "termin"),
    "it": ("posto", "posizion", "classificat", "piazzament"),
    "pt": ("lugar", "posi", "colocad", "classificad"),
    "nl": ("plaats", "positie", "plek"),
}
_CJK_CUES = {"ja": "位", "ko": "위", "zh": "第"}


def local_ranks(text: str, low: str, language: str) -> dict[int, bool]:
    """The start of the digits of each rank ``text`` says in ``language`` (or in Japanese,
    Korean or Chinese, in any locale), with whether it is said as a rank beyond doubt (True)
    or only maybe (False: "Platz 3", held to the evidence's ranks when it has any). ``low`` is
    ``text`` lower-cased, index for index."""
    found: dict[int, bool] = {}
    cues = _CUES.get(language)
    if cues is not None and any(cue in low for cue in cues):
        for match in _SURE[language].finditer(text):
            if not _seat_near(text, match.start(), match.end()):
                found[match.start(match.lastindex)] = True
        maybe = _MAYBE.get(language)
        if maybe is not None:
            for match in maybe.finditer(text):
                start = match.start(1)
                if start not in found and not _seat_near(text, match.start(), match.end()):
                    found[start] = False
    for lang, cue in _CJK_CUES.items():
        if cue in text and (lang != "ja" or language == "ja"):
            for match in _CJK_SURE[lang].finditer(text):
                found[match.start(match.lastindex)] = True
    return found


def _seat_near(text: str, start: int, end: int) -> bool:
    """Whether a word of a seat stands in the clause of ``text[start:end]``, up to 40
    characters before or after it ("Wagen 12, Platz 3", "Platz 3 in Reihe 5")."""
    head = text[max(0, start - 40):start]
    cut = max(head.rfind(stop) for stop in _CLAUSE_STOPS)
    if _SEAT.search(head, cut + 1) is not None:
        return True
    tail = text[end:end + 40]
    cut = min((at for at in map(tail.find, _CLAUSE_STOPS) if at >= 0), default=len(tail))
    return _SEAT.search(tail, 0, cut) is not None
