"""Chinese, Japanese and Korean ways of writing amounts: numerals (三百五十, 两万, 二〇二六, 第三,
三点五), shares and multiples (三成, 翻了一番, 一半, 百分之五), discounts (七折, 3割, 四割引, 半价);
a scale after digits (1.2万, 1万2800, 2千3百8十, 3만원, 1억 2천만); and the idioms whose number
characters are not numbers (``CJK_IDIOMS``).

What each is read as (pinned by tests/cases/scan/cjk_amounts.yaml and, against evidence, by
tests/cases/sweep/cjk_words.yaml):

- X折 (zh) is the share of the price the customer pays, in tenths, read as 九成 is: the
  multiple 0.X. 七折 is 0.7 (30 % off); 七五折, 7.5折, 75折 and 七点五折 are 0.75; 打三折 is
  0.3; 五到七折 and 5-7折 are a range. A ratio in the evidence backs it (``price_ratio: 0.7``,
  ``pay_ratio``, ``price_factor``, a text saying 七折); a percentage does not, whatever its
  field: the evidence index cannot tell ``pay_pct: 30`` from ``discount_pct: 30``, and the
  commonest mistake is 打三折 written for a 30 % discount (打七折). So a discount (``discount_pct:
  30``, a sale price) never backs 七折 nor 三折: fail closed, the model copies a ratio the
  code computed. Not read: 打折 and 折扣 alone (no number), 不折不扣, 百折不挠, 一波三折,
  七折八扣, 三折叠 and 三折页 (folding), 对折 (fold in two; 打对折 is half price).
- N割 (ja) is N tenths written as a percentage: 3割 and 三割 are 30, 三割五分 35, 十割 100. N割引
  (N tenths off) is the same percentage, the discount: 4割引 is 40, backed by ``discount_pct:
  40``. Not read: 割合 (ratio), 割引 alone, 割り勘, 割り算, 割る.
- N成 (zh) stays the multiple 0.N it has always been (九成 0.9, 三成五 0.35), and digits before
  成 read the same way (3成 is 0.3, never the small integer 3).
- Half price (半价, 半價, 半額, 半値, 반값, 반액, 打对折) is the percentage 50: it is 50 % paid
  and 50 % off at once (no discount can be mistaken for it), so ``discount_pct: 50``,
  ``pay_pct: 50`` and ``price_ratio: 0.5`` all back it and a sale price alone does not. 一半
  ("half of") stays the share 0.5.
- 点 (點) between numerals is a decimal point: 三点五 3.5, 四点六万 46000, 一点二万 12000,
  百分之四点九 4.9 %, 一点五倍 the multiple 1.5, 七点五折 0.75. A clock time is not a decimal:
  nothing is read when a unit or 分/刻/钟/半/整 follows the digits (三点二十, 三点五分) or a time
  of day comes before (下午三点五), and 一点 ("a little"), 一点一点 stay idioms.
- After digits, a scale is 万 亿 千 百 十 or Korean 만 억 천 백, and what follows is read the
  same way: 3百 300, 2千3百8十 2380, 3万5 35000 (one digit after a unit is its tenth, as in
  三万五), 1万2800 12800 (more digits are exact), 3万亿 3 × 10^12, 3만원 30000 KRW, 1만 2800원,
  1만 9,900원 (the rest grouped with a comma), 1억 2천만 원. After a space, the next digits join
  only when a unit, 원, a counter (1만 2840명, 1만 9,900회, 1억 2000만 3500건), a particle or
  copula (1만 2840입니다) or the end of the number follows them, and are the group's digits, not
  a colloquial tenth (3만 5원 is 30005); "3만 원" is in won; 1만 명 중 2840명 and 3만 2026년 are
  two numbers. Korean 만 is a scale only right after digits: 사과만 ("only apples"),
  만약 ("if"), 3개만 ("only 3") are not scales, nor 3만큼 ("as much as 3"); 3 백 or 3 만,
  with a space between the digits and the scale, are not read as one amount.
- Yuan and its tenths: 5块5, 5元5角, 5块5毛 are one amount, 5.5 yuan, and 5元5角5分 5.55 (角 and
  毛 are tenths, 分 hundredths); in numerals 三块五 3.5, 十二块五毛 12.5, 两块钱 2, all in
  yuan. Numerals before 块 or 元 with neither tenths nor 钱 are not read (一块 is also
  "together", 三块 three pieces), nor a lone digit after the sign that starts something else
  (5块5个, 三块五十, 5块50).
- Korean native numerals (하나/한, 둘/두, 셋/세, 넷/네, 다섯 ... 아홉, 열, 스물/스무, 서른 ...
  아흔 and their compounds 열두, 스물다섯) are read only before a counter (개, 명, 번, 시간,
  살, 권, 잔, 마리, 장, 대, 건...: ``_KO_COUNTERS``), at the start of a word, the counter
  ending its word or followed by a particle or a copula (개가, 명이, 개씩, 개입니다): 열두 개
  12, 스물다섯명이 25, 두 시간 반 2.5. 한 alone, which is also "a", only before a counter of
  things or people (한 개, 한 명: 1), not 한 번 ("once"), 한번, 한 시간 ("an hour"), 한 잔, 한
  가지, 한 달. Not read: 세대 (대 needs a space), 역세권, 번호, 잔액, 번째 (an ordinal). The
  forms said alone (하나, 둘, 셋, 넷, 열하나; not 한, 두, 세, 네, 스무) are read also before
  "left" or "there is", like "one left": 하나 남았어요, 하나만 남았어요, 하나밖에 안 남았어요, 둘
  있습니다; before 뿐 ("only") with a copula or nothing after it (하나뿐이에요, 둘뿐입니다); and
  하나 after 마지막 ("the last one": 마지막 하나!, 마지막 하나예요); not 하나도 ("none at
  all"), 하나의 ("a"), 하나님, 하나뿐인 ("one-of-a-kind"), 마지막 하나는 ("the last one is").
"""

from __future__ import annotations

import re
from decimal import Decimal

from rulekit.scan.base import _IDIOM, _Hit, _trie

# Chinese idioms and words whose number characters are not numbers. Those made only of number
# characters must not touch another number character (三千万 is 30 million, not 三 + 千万).
CJK_IDIOMS = (
    "千万", "千萬", "万一", "萬一", "万万", "萬萬", "千千万万", "千千萬萬", "百分百", "百分之百",
    "十万火急", "十萬火急", "一定", "一直", "一些", "一样", "一樣", "一起", "一下", "一点", "一點",
    "一般", "一切", "一旦", "一致", "一共", "一边", "一邊", "一会", "一會", "一再", "一向", "一如",
    "统一", "統一", "唯一", "万分", "萬分", "一成不变", "一成不變", "三心二意", "一心一意",
    "七上八下", "乱七八糟", "亂七八糟", "不管三七二十一", "一石二鸟", "一石二鳥", "四面八方",
    "五花八门", "五花八門", "九死一生", "千方百计", "千方百計", "百发百中", "百發百中", "一模一样",
    "一模一樣", "一清二楚", "独一无二", "獨一無二", "十全十美", "成千上万", "成千上萬", "万无一失",
    "萬無一失", "一举两得", "一舉兩得", "十有八九", "千载难逢", "千載難逢", "九牛一毛", "一五一十",
    "三番五次", "五湖四海", "万众一心", "萬眾一心", "一帆风顺", "一帆風順", "千钧一发", "千鈞一髮",
    "一目了然", "一路顺风", "一路順風", "百闻不如一见", "百聞不如一見", "十字", "万岁", "萬歲",
    "万能", "萬能", "百货", "百貨", "百姓", "千克", "千米", "第一时间", "第一時間",
    "一波三折", "七折八扣", "百折不挠", "百折不撓",
)
_CJK_NUMERALS = "零〇一二两兩三四五六七八九壹贰貳叁參肆伍陆陸柒捌玖十拾百佰千仟万萬亿億"
_CJK_DIGIT = {"零": 0, "〇": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
              "三": 3, "叁": 3, "參": 3, "四": 4, "肆": 4, "五": 5, "伍": 5, "六": 6, "陆": 6,
              "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9}
# The digits a decimal part is written with, one character per digit (三点一四).
_PLAIN_DIGITS = "零〇一二两兩三四五六七八九"
_CJK_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CJK_BIG = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CJK_CLASSIFIERS = frozenset("个個次条條篇位名天周週年件张張本人家台辆輛部只隻份层層分秒倍项項款")
_CJK_CHENG_NOT = frozenset("功为為立本员員绩績果交熟长長就人都")
# "a little" (一点, 一點) is an idiom unless a decimal digit follows it that is not itself
# another 一点 (一点二万 is 12000, 一点一点 is "little by little"); after a numeral it stays
# masked, as it always was (十一点五分 is a clock time).
_LITTLE = ("一点", "一點")
_PURE_IDIOMS = [i for i in CJK_IDIOMS if all(c in _CJK_NUMERALS for c in i)]
_CJK_IDIOM = re.compile(
    rf"(?<![{_CJK_NUMERALS}])(?:{_trie(_PURE_IDIOMS)})(?![{_CJK_NUMERALS}])"
    rf"|(?:{_trie(i for i in CJK_IDIOMS if i not in _PURE_IDIOMS and i not in _LITTLE)})"
    rf"|(?<=[{_CJK_NUMERALS}])一[点點]|一[点點](?![{_PLAIN_DIGITS}](?![点點]))"
    r"|十分(?![钟鐘])|(?:星期|礼拜|禮拜|周|週)[一二三四五六日天]")
# Whether the pass has anything to look at: a numeral, or a mark of a share or a discount.
_CJK_ANY = re.compile(rf"[{_CJK_NUMERALS}翻折割成半반倍]")
_CJK_RUN = re.compile(rf"[{_CJK_NUMERALS}]+")
_CJK_PERCENT = re.compile(rf"百分之([{_CJK_NUMERALS}]+)(?:[点點]([{_PLAIN_DIGITS}]{{1,12}}))?")
_CJK_DOUBLING = re.compile(r"翻了?([一二两兩三四])番|翻倍|加倍|翻番")
# Doubled and halved without a number (probe fuzz f12): 倍増 (ja), 倍增 (zh), 倍になった (ja:
# "became double"), and 半減, 半减, 减半, 減半 (the multiple 0.5, like "halved"). Not after a
# number or a word of quantity, whose multiple the digits' reader takes ("3倍になった", 数倍).
_CJK_DOUBLED_HALVED = re.compile(r"倍(?:[増增]|にな[っりる])|(半[減减]|[减減]半)")
_CJK_NOT_BEFORE_BAI = frozenset(f"{_CJK_NUMERALS}0123456789数數何幾几")
_CJK_HALF = re.compile(r"一半|半分(?![钟鐘])")        # 半分 (ja), not 半分钟 (half a minute)
# Half price: the percentage 50 (see the module docstring).
_HALF_PRICE = re.compile(r"半(?:价|價|額|额|値)|반(?:값|액)|打[对對]折")
# 三点五: found at its 点, then the integer part before it (at most 12 numerals, which must
# start their run) and the decimal digits after it.
_DIAN = re.compile(r"[点點]")
_WHOLE_BEFORE = re.compile(rf"[{_CJK_NUMERALS}]{{1,12}}\Z")
_DECIMALS_AFTER = re.compile(rf"[{_PLAIN_DIGITS}]{{1,12}}")
# What makes 三点五 a clock time rather than a decimal: after the digits (三点二十, 三点五分) ...
_NOT_DECIMAL_AFTER = frozenset("十拾百佰千仟分刻钟鐘秒半整点點时時号號")
# ... or before the numeral (下午三点五, 晚上三点五).
_TIME_BEFORE = ("上午", "下午", "中午", "晚上", "早上", "凌晨", "傍晚", "夜里", "夜裡", "今晚",
                "明晚", "今早", "明早", "半夜", "深夜")
_TIME_BEFORE_ONE = frozenset("早晚午晨夜第")
# Digits before a tenth: 7折, 7.5折, 75折, 3割, 3成 (and the first end of 5-7折, 3〜4割), found
# at the mark, then the digits before it.
_TENTH_MARK = re.compile(r"[折割成]")
_DIGITS_BEFORE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,2})?\Z")
_RANGE_BEFORE = re.compile(
    r"([0-9]{1,3}(?:\.[0-9]{1,2})?)[ \u00a0]?[-~\u301c\u2013至到][ \u00a0]?\Z")
_RANGE_MARKS = frozenset("-~\u301c\u2013至到")
# 三折叠 (tri-fold, but 七折叠加 is 0.7 stacked with more), 三折页 (a brochure), 折射, 折腾...:
# 折 starts another word. Kept short: after a discount come words of trade (七折服装, 七折断码,
# 七折线上, 七折返现, 七折纸巾).
_ZHE_NOT = frozenset("叠疊页頁射痕戟杀殺寿壽肱腰腾騰")
# 割合 (ratio), 割り勘, 割愛, 割烹 and the verb 割る: 割 starts another word.
_WARI_NOT = frozenset("合勘愛烹るれらっろ")
# 割 then 分 (hundredths) and 厘 (thousandths): 三割五分 is 35 %, 3割2分5厘 32.5 %.
_WARI_MORE = re.compile(rf"([0-9]|[{_PLAIN_DIGITS}])分(?:([0-9]|[{_PLAIN_DIGITS}])厘)?")
_WARI_OFF = re.compile(r"り?引き?|り?(?=[増減])")

# A scale after digits (see the module docstring), as ``figures`` finds it right after the
# digits; ``cjk_scale`` reads it with what follows. Each unit keeps off the words it starts:
# 十分, 百分 (per cent), 百货, 千米 (km), 千克 (kg), 백화점, 천천히, 만큼, 만약.
_UNIT_AT = re.compile(r"十(?![分字])|百(?![分货貨度姓科])|千(?![米克瓦卡])|[万萬亿億]"
                      r"|백(?![화신업])|천(?!천)|만(?![큼약])|억")
_UNIT = {"十": 10, "百": 100, "千": 1000, "万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8,
         "백": 100, "천": 1000, "만": 10**4, "억": 10**8}
_CJK_SCALE = re.compile(rf"[ \u00a0]?({_UNIT_AT.pattern})")
# The digits after a scale: 1万2800, 1만 2800원, and grouped with a comma, 1만 9,900원.
_TAIL = re.compile(r"([ \u00a0]?)([0-9],[0-9]{3}(?![0-9])|[0-9]+(?:\.[0-9]+)?)")
_TAIL_FIRST = frozenset("0123456789 \u00a0")
_TAIL_CURRENCY = frozenset("원元円")
_ASCII_DIGITS = frozenset("0123456789")
_OPEN = (0, _IDIOM)                         # the marks a scale may read over

# After an amount in yuan (块, 塊, 元): its tenths (角, colloquially 毛, or the digit alone) and
# hundredths (分): 5块5 and 5元5角 are 5.5, 三块五毛 3.5, 5元5角5分 5.55 (``_yuan_tail``).
_YUAN_SIGNS = frozenset("块塊元")
_YUAN_DIGIT = "1-9一二两兩三四五六七八九"
_YUAN_TAIL = re.compile(rf"([{_YUAN_DIGIT}])(?:([角毛])(?:([{_YUAN_DIGIT}])分)?)?")
# A lone digit after the sign followed by these is something else (三块五十, 5块5个, 5块50).
_YUAN_TAIL_NOT = frozenset(_CJK_NUMERALS + "0123456789%角毛分折成倍") | _CJK_CLASSIFIERS
_MONEY_WORD = frozenset("钱錢")

# Korean native numerals (see ``_Cjk.korean``): tens, then units, in the forms written before a
# counter (한, 두, 세, 네, 스무) and alone (하나, 둘, 셋, 넷, 스물); 스무 takes no unit.
_KO_TENS = {"열": 10, "스물": 20, "스무": 20, "서른": 30, "마흔": 40, "쉰": 50, "예순": 60,
            "일흔": 70, "여든": 80, "아흔": 90}
_KO_UNITS = {"하나": 1, "한": 1, "둘": 2, "두": 2, "셋": 3, "세": 3, "넷": 4, "네": 4,
             "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9}
_KO_NUMERALS = {**_KO_TENS, **_KO_UNITS,
                **{tens + unit: tv + uv for tens, tv in _KO_TENS.items() if tens != "스무"
                   for unit, uv in _KO_UNITS.items()}}
# Counters a native numeral is read before. 한 alone, which is also "a", only before those
# that count things or people (한 개, 한 명): not 한 번 ("once"), 한 시간 ("an hour"), 한 잔
# ("a drink"), 한 가지, 한 달.
_KO_ONE_COUNTERS = frozenset(("개", "명", "건", "마리", "권", "장", "병", "벌", "켤레", "송이",
                              "그루", "대", "상자", "박스", "봉지", "팩", "캔", "사람", "분"))
_KO_COUNTERS = _KO_ONE_COUNTERS | frozenset(("번", "시간", "살", "잔", "가지", "달", "주",
                                             "곳", "군데", "차례", "통"))
# A half after these: 두 시간 반 (2.5 hours), 세 달 반, 다섯 살 반.
_KO_HALVES = frozenset(("시간", "달", "주", "살"))
_HANGUL = "\uac00-\ud7a3"
# The numeral starts its word (역세권 is no 3); the counter ends it or a particle or copula
# follows (개가, 명이, 개씩, 개입니다, 개예요, 시간정도): 세대 (generation), 번호 (number), 잔액
# (balance), 개인 (person) are other words, and 번째 an ordinal ("second"), not read.
_KO_NATIVE = re.compile(
    rf"({_trie(_KO_NUMERALS, f'[{_HANGUL}]')})([ \u00a0]?)({_trie(_KO_COUNTERS)})"
    rf"(?:[ \u00a0]?(반))?"
    rf"(?:(?![{_HANGUL}])|(?=[이가을를은는도만씩의에와과로으까부밖쯤나뿐입예요며면랑하정미초]))")
_HANGUL_ANY = re.compile(f"[{_HANGUL}]")
# What may follow the digits after a spaced 만 or 억 for them to be the rest of the amount
# (1만 2840명, 1억 2000만 3500건, 2만 500 개, 1만 2840입니다, 1만 2840.): a counter (or 원,
# 회, 점, 달러) ending its word or before a particle or copula; a particle or copula; or the end
# of the number (no letter, digit or space follows). Anything else (3만 2026년, 1만 2840 중)
# keeps them another number.
_KO_SPACED_REST = re.compile(
    rf"[ \u00a0]?(?:{_trie(_KO_COUNTERS | {'원', '회', '점', '달러'})})"
    rf"(?:(?![{_HANGUL}])|(?=[이가을를은는도만씩의에와과로으까부밖쯤나뿐입예요며면랑하정미초]))"
    rf"|(?:이|가|을|를|은|는|도|의|에|와|과|으로|로|까지|부터|쯤|입니|이에요|이야|예요)"
    rf"|(?![0-9A-Za-z \u00a0{_HANGUL}])")
# A native numeral in its form said alone (하나, 둘, 셋, 열둘; not 한, 두, 세, 네, which is also
# "yes", or 스무) before "left" or "there is" (``_Cjk.korean_left``), like "one left": 하나
# 남았어요 (1), 하나만 남았어요, 하나밖에 안 남았어요, 둘 있습니다; before 뿐 ("only") and a
# copula or the end of the word (하나뿐이에요, 둘뿐입니다, 하나뿐!); and 하나 after 마지막 ("the
# last one") before a copula, 만, 뿐 or the end of the word (마지막 하나!, 마지막 하나예요). Not
# 하나도 (없어요, "none at all"), 하나의 ("a"), 하나님, 하나같이, 하나뿐인 ("one-of-a-kind"),
# 하나뿐만 ("not only"), 마지막 하나는 ("the last one is").
_KO_ALONE = {name: value for name, value in _KO_NUMERALS.items()
             if not name.endswith(("한", "두", "세", "네", "스무"))}
_KO_LEFT = re.compile(
    rf"({_trie(_KO_ALONE, f'[{_HANGUL}]')})(?:(?:만|밖에|뿐)?[ \u00a0]+(?:안[ \u00a0]+)?"
    rf"(?:남[았아음은]|있[어습음])|뿐(?=이|입|[^{_HANGUL}]|$))"
    rf"|마지막[ \u00a0]+(하나)(?=예요|이에요|입니|이야|야|만|뿐|[^{_HANGUL}]|$)")


def _pct(value: Decimal) -> Decimal:
    """A figure without a trailing ".0" (3.5割 is 35, not 35.0)."""
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize()


def _zhe_digits(digits: str) -> Decimal | None:
    """The share of the price paid that digits before 折 write: 7 is 0.7, 7.5 is 0.75, 75 is
    0.75 (七五折); None for anything else (10折, 100折)."""
    if "." in digits:
        value = Decimal(digits)
        return (value / 10).normalize() if 0 < value < 10 else None
    if len(digits) == 1 and digits != "0":
        return Decimal(int(digits)) / 10
    if len(digits) == 2 and "0" not in digits:
        return Decimal(int(digits)) / 100
    return None


def _tenth(s: int, e: int, digits: str, mark: str) -> _Hit | None:
    """The digits [s, e) before 折, 割 or 成 as a hit over the digits alone (the caller extends
    it over the mark), or None when they write no tenth (10折, 15割)."""
    if mark == "折":
        value = _zhe_digits(digits)
        if value is None:
            return None
        hit = _Hit("multiple", s, e, value)
    else:
        number = Decimal(digits)
        if not 0 < number <= 10 or number * 10 != (number * 10).to_integral_value():
            return None
        if mark == "割":
            hit = _Hit("number", s, e, _pct(number * 10))
            hit.percent = True
        else:
            hit = _Hit("multiple", s, e, number / 10)
    hit.token = digits
    return hit


class _Cjk:
    """Chinese, Japanese and Korean numerals, shares, discounts and idioms; a part of
    ``_Scanner``."""

    def cjk_scale(self, hit: _Hit, found: re.Match) -> int:
        """The amount that a scale after digits starts (``found``, a match of ``_CJK_SCALE``
        right after the digits of ``hit``): 1.2万 (12000), 3千万, 1万2800 (exact), 3万5
        (35000), 2千3百8十, 1亿2000万, 3만원, 1억 2천만 원. Sets the hit's value and scale (what
        the digits written last were multiplied by) and returns where the amount ends."""
        text = self.text
        read = _digits_and_units(text, self.mask, hit.value, found.start(1))
        if read is None:
            return hit.e                    # the unit is a clock time's or a link's (9十点)
        value, end, scale = read
        hit.value, hit.scaled, hit.scale = value, True, scale
        if hit.currency is None and text[end:end + 1] in (" ", "\u00a0") \
                and text[end + 1:end + 2] == "원" and text[end + 2:end + 3] != "래":
            hit.currency, end = "KRW", end + 2          # 3만 원: spaced as Korean writes it
        return end

    def cjk(self) -> None:
        text = self.text
        if _HANGUL_ANY.search(text) is not None:
            self.korean()
        if _CJK_ANY.search(text) is None:
            return
        for match in _CJK_IDIOM.finditer(text):
            if self.free(*match.span()):
                self.mask[match.start():match.end()] = bytes((_IDIOM,)) * (match.end() - match.start())
        for match in _CJK_PERCENT.finditer(text):
            value = _cjk_value(match.group(1))
            if value is not None and self.free(*match.span()):
                hit = _Hit("word_number", *match.span(), Decimal(value))
                if match.group(2):
                    hit.value = Decimal(f"{value}.{_digit_string(match.group(2))}")
                    hit.decimals = len(match.group(2))
                hit.percent = True
                self.claim(hit)
        if "点" in text or "點" in text:
            for dian in _DIAN.finditer(text):
                at = dian.start()
                if at and text[at - 1] in _CJK_NUMERALS:
                    self.cjk_decimal(at)
        for match in _CJK_DOUBLING.finditer(text):
            if self.free(*match.span()):
                times = match.group(1)
                self.claim(_Hit("multiple", *match.span(),
                                Decimal(2 ** _CJK_DIGIT[times] if times else 2)))
        if "倍" in text or "半" in text:
            for match in _CJK_DOUBLED_HALVED.finditer(text):
                s = match.start()
                if (match.group(1) or not s or text[s - 1] not in _CJK_NOT_BEFORE_BAI) \
                        and self.free(*match.span()):
                    self.claim(_Hit("multiple", *match.span(),
                                    Decimal("0.5") if match.group(1) else Decimal(2)))
        if "一半" in text or "半分" in text:
            for match in _CJK_HALF.finditer(text):
                s = match.start()
                if (not s or text[s - 1] not in _CJK_NUMERALS) and self.free(*match.span()):
                    self.claim(_Hit("word_number", *match.span(), Decimal("0.5")))
        if "半" in text or "반" in text or "对折" in text or "對折" in text:
            for match in _HALF_PRICE.finditer(text):
                if self.free(*match.span()):
                    hit = _Hit("word_number", *match.span(), Decimal(50))
                    hit.percent = True
                    self.claim(hit)
        if "折" in text or "割" in text or "成" in text:
            for mark in _TENTH_MARK.finditer(text):
                at = mark.start()
                if at and text[at - 1] in _ASCII_DIGITS:
                    self.digit_tenths(at)
        for match in _CJK_RUN.finditer(text):
            s, e = match.span()
            if not self.free(s, e) or (s and text[s - 1].isdigit()) \
                    or (s > 1 and text[s - 1] in " \u00a0" and text[s - 2].isdigit()
                        and (text[s] in _CJK_SMALL or text[s] in _CJK_BIG)):
                continue                    # 3千万, 1.2 萬: the digits' scale
            # ("蓝牙耳机 X1 一百八十九元": a numeral spaced from digits is a number of its own)
            self.cjk_run(s, e, match.group())

    def korean(self) -> None:
        """Korean native numerals before a counter: 열두 개 (12), 스물다섯 명 (25), 세 시간 (3),
        두 시간 반 (2.5), 한 개 (1); see ``_KO_NATIVE`` and ``_KO_ONE_COUNTERS``. Sino-Korean
        numerals are written with digits (12개) and read with them."""
        for match in _KO_NATIVE.finditer(self.text):
            numeral, gap, counter, half = match.groups()
            if (numeral == "한" and counter not in _KO_ONE_COUNTERS) \
                    or (counter == "대" and not gap):
                continue                    # 한 번 ("once"); 세대 (a generation)
            s, e = match.span(1)
            hit = _Hit("word_number", s, e, Decimal(_KO_NUMERALS[numeral]))
            if half and counter in _KO_HALVES:
                hit.value, hit.decimals, hit.e = hit.value + Decimal("0.5"), 1, match.end(4)
            if self.free(hit.s, hit.e):
                self.claim(hit)
        text = self.text
        if "남" in text or "있" in text or "뿐" in text or "마지막" in text:
            self.korean_left()

    def korean_left(self) -> None:
        """A native numeral said alone before "left", "there is" or "only", or 하나 after "the
        last": 하나 남았어요 (1), 둘 있습니다 (2), 하나뿐이에요, 마지막 하나; see ``_KO_LEFT``."""
        for match in _KO_LEFT.finditer(self.text):
            group = 1 if match.group(1) else 2
            s, e = match.span(group)
            if self.free(s, e):
                self.claim(_Hit("word_number", s, e, Decimal(_KO_ALONE[match.group(group)])))

    def cjk_decimal(self, at: int) -> None:
        """The numeral around the 点 at ``at``: 三点五 (3.5), 四点六万 (46000), 一点五倍 (the
        multiple 1.5), 七点五折 (0.75); not a clock time (三点五分, 下午三点五) nor an ordinal
        (第三点)."""
        text = self.text
        whole = _WHOLE_BEFORE.search(text, max(0, at - 12), at)
        tail = _DECIMALS_AFTER.match(text, at + 1)
        if whole is None or tail is None:
            return
        s, e = whole.start(), tail.end()
        run, decimals = whole.group(), tail.group()
        after = text[e:e + 1]
        if s and text[s - 1] in _CJK_NUMERALS:
            return                          # a run longer than 12 numerals
        if after in _NOT_DECIMAL_AFTER or (s and text[s - 1] in _TIME_BEFORE_ONE) \
                or text[max(0, s - 2):s] in _TIME_BEFORE:
            return
        if run[-1] in _CJK_BIG or (len(run) >= 2 and run[-1] in _CJK_DIGIT
                                   and run[-2] in "百佰千仟万萬亿億"):
            return                          # 三万点五, 一千二点五: not a decimal number
        number = _CJK_DIGIT[run] if len(run) == 1 and run in _CJK_DIGIT else (
            _cjk_value(run) if len(run) > 1 or run in _CJK_SMALL else None)
        if number is None:
            return
        value = Decimal(f"{number}.{_digit_string(decimals)}")
        hit = _Hit("word_number", s, e, value)
        hit.decimals = len(decimals)
        if after in _CJK_BIG:
            hit.value, hit.scaled, hit.scale = value * _CJK_BIG[after], True, _CJK_BIG[after]
            hit.e = e + 1
        elif after == "倍":
            hit.kind, hit.e = "multiple", e + 1
        elif after == "折":
            if not 0 < value < 10 or _folding(text, e + 1):
                return
            hit.kind, hit.value, hit.decimals, hit.e = "multiple", value / 10, 0, e + 1
        elif after in ("%", "\u066a"):
            hit.percent, hit.e = True, e + 1
        if self.free(hit.s, hit.e):
            self.claim(hit)

    def digit_tenths(self, e: int) -> None:
        """The digits before the mark at ``e``: 折 (7折 is 0.7, 7.5折 and 75折 0.75), 割 (3割 is
        30 %, 3割引 30 % off, 3割5分 35 %) or 成 (3成 is the multiple 0.3), with the first end of
        a range (5-7折)."""
        text = self.text
        found = _DIGITS_BEFORE.search(text, max(0, e - 6), e)
        if found is None:
            return
        s, digits, mark = found.start(), found.group(), text[e]
        if s and (text[s - 1] in _ASCII_DIGITS or (text[s - 1].isascii() and text[s - 1].isalpha())
                  or (text[s - 1] in ".," and s > 1 and text[s - 2] in _ASCII_DIGITS)):
            return                          # 12345折, 1,5折 are no tenth; A3成 is a name
        after = text[e + 1:e + 2]
        if mark == "割":
            if after in _WARI_NOT or (after == "り" and text[e + 2:e + 3] not in "引増減"):
                return
        elif mark == "成":
            if after in _CJK_CHENG_NOT or text.startswith(("不变", "不變"), e + 1):
                return
        elif _folding(text, e + 1):
            return
        hit = _tenth(s, e, digits, mark)
        if hit is None:
            return
        hit.e = e + 1
        if mark == "割":
            self.wari_tail(hit)
        elif mark == "成" and after in _ASCII_DIGITS and "." not in digits and hit.value < 1 \
                and text[e + 2:e + 3] not in _ASCII_DIGITS and text[e + 2:e + 3] != ".":
            hit.value, hit.e = hit.value + Decimal(after) / 100, e + 2     # 3成5 is 0.35
        if not self.free(hit.s, hit.e):
            return
        self.claim(hit)
        before = _RANGE_BEFORE.search(text, max(0, s - 12), s)
        if before is not None:
            a, b = before.span(1)
            if not (a and (text[a - 1] in _ASCII_DIGITS or (
                    text[a - 1] in ".," and a > 1 and text[a - 2] in _ASCII_DIGITS))):
                first = _tenth(a, b, before.group(1), mark)
                if first is not None and self.free(a, b):
                    self.claim(first)

    def wari_tail(self, hit: _Hit) -> None:
        """What may follow 割: 五分 (hundredths) and 厘 (thousandths), then 引 (off)."""
        text = self.text
        more = _WARI_MORE.match(text, hit.e)
        if more is not None:
            hit.value = _pct(hit.value + _digit_value(more.group(1)) + (
                Decimal(_digit_value(more.group(2))) / 10 if more.group(2) else 0))
            hit.e = more.end()
        off = _WARI_OFF.match(text, hit.e)
        if off is not None:
            hit.e = off.end()

    def cjk_run(self, s: int, e: int, run: str) -> None:
        text = self.text
        after = text[e:e + 1]
        if run == "百" and after == "分":
            return                          # 百分之, 百分比: "per cent", not a hundred
        if after in ("折", "割") and self.numeral_tenths(s, e, run, after):
            return
        if after in _YUAN_SIGNS and self.numeral_yuan(s, e, run):
            return
        ordinal = s > 0 and text[s - 1] == "第"
        ratio = after == "成" and text[e + 1:e + 2] not in _CJK_CHENG_NOT \
            and not text.startswith(("不变", "不變"), e + 1)
        if not any(c in _CJK_SMALL or c in _CJK_BIG for c in run):
            if len(run) >= 2 and ("〇" in run or "零" in run):
                value = int("".join(str(_CJK_DIGIT[c]) for c in run))
            elif len(run) == 1 and (after == "倍" or ratio or ordinal
                                    or (run != "一" and after in _CJK_CLASSIFIERS)):
                value = _CJK_DIGIT[run]
            else:
                return
        else:
            if len(run) < 2 and not (ordinal or after in _CJK_CLASSIFIERS):
                return
            value = _cjk_value(run)
            if value is None:
                return
        hit = _Hit("word_number", s, e, Decimal(value))
        if after == "倍":
            hit.kind, hit.e = "multiple", e + 1
        elif ratio:
            hit.kind, hit.e = "multiple", e + 1
            next_digit = _CJK_DIGIT.get(text[e + 1:e + 2])
            if next_digit is not None and value < 10:
                hit.value, hit.e = Decimal(value * 10 + next_digit) / 100, e + 2
            else:
                hit.value = Decimal(value) / 10
        elif ordinal:
            hit.ordinal, hit.s = True, s - 1
        else:
            if after in ("%", "\u066a"):
                hit.percent, hit.e = True, e + 1
            if run[-1] in _CJK_BIG:
                hit.scaled, hit.scale = True, _CJK_BIG[run[-1]]
        if self.free(hit.s, hit.e):
            self.claim(hit)

    def numeral_yuan(self, s: int, e: int, run: str) -> bool:
        """An amount in yuan written in numerals, before 块, 塊 or 元: 三块五 (3.5), 十二块五毛
        (12.5), 三元五角, 两块钱 (2); whether it was read. Without tenths or 钱 it is not:
        一块 is also "together" and 三块 three pieces."""
        text = self.text
        value = _CJK_DIGIT[run] if run in _CJK_DIGIT else _cjk_value(run)
        if not value:
            return False
        hit = _Hit("word_number", s, e + 1, Decimal(value))
        tail = _yuan_tail(text, e + 1)
        if tail is not None:
            hit.value += tail[0]
            hit.decimals, hit.e = tail[1], tail[2]
        elif text[e + 1:e + 2] in _MONEY_WORD:
            hit.e = e + 2
        else:
            return False
        if not self.free(hit.s, hit.e):
            return False
        from rulekit.scan.figures import _currency_for     # (imports us)
        hit.currency = _currency_for("yuan", self.info.locale)
        self.claim(hit)
        return True

    def numeral_tenths(self, s: int, e: int, run: str, mark: str) -> bool:
        """七折 (0.7), 七五折 (0.75), 打三折 (0.3), 三割 (30 %), 四割引 (40 % off), 三割五分
        (35 %), 十割 (100 %), with the first end of a range (五到七折); whether it was read."""
        text = self.text
        after = text[e + 1:e + 2]
        if mark == "折":
            if _folding(text, e + 1) or not all(c in _CJK_DIGIT for c in run) or len(run) > 2 \
                    or _CJK_DIGIT[run[0]] == 0:
                return False
            value = sum(_CJK_DIGIT[c] * 10 ** (1 - k) for k, c in enumerate(run))
        else:
            if after in _WARI_NOT or (after == "り" and text[e + 2:e + 3] not in "引増減"):
                return False
            if run in ("十", "拾"):
                value = 100
            elif len(run) == 1 and _CJK_DIGIT.get(run):
                value = _CJK_DIGIT[run] * 10
            else:
                return False
        if mark == "折":
            hit = _Hit("multiple", s, e + 1, Decimal(value) / 100)
        else:
            hit = _Hit("word_number", s, e + 1, Decimal(value))
            hit.percent = True
            self.wari_tail(hit)
        if not self.free(hit.s, hit.e):
            return False
        self.claim(hit)
        # the first end of a range: 五到七折, 三〜四割 (one digit each)
        if len(run) == 1 and s >= 2 and text[s - 1] in _RANGE_MARKS \
                and _CJK_DIGIT.get(text[s - 2]) and (s < 3 or text[s - 3] not in _CJK_NUMERALS) \
                and self.free(s - 2, s - 1):
            digit = _CJK_DIGIT[text[s - 2]]
            if mark == "折":
                first = _Hit("multiple", s - 2, s - 1, Decimal(digit) / 10)
            else:
                first = _Hit("word_number", s - 2, s - 1, Decimal(digit * 10))
                first.percent = True
            self.claim(first)
        return True


def _yuan_tail(text: str, at: int) -> tuple[Decimal, int, int] | None:
    """The tenths (and hundredths) written at ``at``, right after the 块, 塊 or 元 of an amount
    in whole yuan: (what they add, their decimals, where they end), or None."""
    found = _YUAN_TAIL.match(text, at)
    if found is None:
        return None
    tenth, jiao, cent = found.groups()
    after = text[found.end():found.end() + 1]
    if not jiao and (after in _YUAN_TAIL_NOT or (
            after in ".," and text[found.end() + 1:found.end() + 2] in _ASCII_DIGITS)):
        return None
    if cent:
        return Decimal(_digit_value(tenth) * 10 + _digit_value(cent)) / 100, 2, found.end()
    return Decimal(_digit_value(tenth)) / 10, 1, found.end()


def _folding(text: str, at: int) -> bool:
    """Whether the 折 before ``at`` starts another word (三折叠, 折射; see ``_ZHE_NOT``)."""
    return text[at:at + 1] in _ZHE_NOT and not text.startswith(("叠加", "疊加"), at)


def _digit_string(digits: str) -> str:
    """三一四 as "314": a decimal part is written digit by digit."""
    return "".join(str(_CJK_DIGIT[c]) for c in digits)


def _digit_value(char: str) -> int:
    return int(char) if char in _ASCII_DIGITS else _CJK_DIGIT[char]


def _digits_and_units(text: str, mask: bytearray, first: Decimal,
                      pos: int) -> tuple[Decimal, int, int] | None:
    """The amount written from the digits ``first`` on, the first unit at ``pos``: units and
    digits in turn (2千3百8十, 1亿2000万, 1억 2천만), ending on a unit or on digits less than
    the last unit (1万2800 exact, 3万5 colloquial: 35000). (value, end, the multiplier of the
    digits written last), or None when the first unit is already another mention's. Only units
    may follow a decimal (1.5千万). It stops before anything claimed (an idiom's mark, as in
    3千万, is no claim)."""
    if mask[pos] not in _OPEN:
        return None
    total = section = Decimal(0)
    pending: Decimal | None = first     # digits not yet multiplied by their unit
    small = big = last = 0              # the last small unit (十百千), big unit (万亿), unit
    mult = 1                            # what the digits written last were multiplied by
    whole = first == first.to_integral_value()
    i = end = pos
    value = first
    while True:
        found = _UNIT_AT.match(text, i)
        if found is None or mask[i] not in _OPEN:
            break
        unit = _UNIT[found.group()]
        if unit < 10**4:
            if pending is None or (small and unit >= small):
                break
            section += pending * unit
            pending, small, mult = None, unit, unit
        elif big and unit >= big:
            if not (unit == 10**8 and last == 10**4 and pending is None and section == 0):
                break
            total, big, mult = total * unit, 10**12, mult * unit    # 3万亿: 3 × 10^12
        else:
            if pending is not None:
                section, pending, mult = section + pending, None, 1
            if section == 0:
                break
            total, section, small, big, mult = total + section * unit, Decimal(0), 0, unit, \
                mult * unit
        last, i = unit, found.end()
        end, value = i, total + section
        if not whole or _UNIT_AT.match(text, i):
            continue                        # 千万, 万亿; 1.5千万: no digits after a decimal's units
        if text[i:i + 1] not in _TAIL_FIRST:
            break                           # most amounts end at their unit (3万元, 2千次)
        tail = _TAIL.match(text, i)
        if tail is None:
            break
        spaced, digits = tail.group(1), tail.group(2).replace(",", "")
        after = tail.end()
        if mask.count(0, i, after) != after - i:
            break                           # digits already read (a date, a link)
        if spaced and last < 10**4:
            break                           # 3千 5: a space only after 万, 亿, 만, 억
        if _UNIT_AT.match(text, after):
            if spaced and "." in digits:
                break
            pending, i = Decimal(digits), after
            continue                        # 1万2千, 1억 2천만: the next unit decides
        if "." in digits or text[after:after + 1] in _ASCII_DIGITS or (
                text[after:after + 1] in ".," and text[after + 1:after + 2] in _ASCII_DIGITS):
            break
        if spaced and not (text[after:after + 1] in _TAIL_CURRENCY or (
                text[after:after + 1] in " \u00a0" and text[after + 1:after + 2] == "원")
                or _KO_SPACED_REST.match(text, after)):
            break                           # 3만 2026년: another number; 1만 2800원: the rest
        rest, rest_mult = Decimal(digits), 1
        if len(digits) == 1 and digits != "0" and last >= 100 and not spaced:
            rest_mult = last // 10          # 3万5 is 35000, as 三万五
            rest *= rest_mult
        if rest >= last:
            break
        return total + section + rest, after, rest_mult
    return value, end, mult


def _cjk_value(run: str) -> int | None:
    """A Chinese numeral: 三百五十 350, 一千二百 1200, 两万 20000, 十五 15, and the colloquial
    一千二 1200, 三万五 35000. None when it is not well formed (三四, 十百)."""
    total = section = 0
    digit: int | None = None
    last_unit = 0               # the last unit written, for the colloquial trailing digit
    last_big = 10**12
    zero = False
    for char in run:
        if char in _CJK_DIGIT:
            if digit is not None and not zero:
                return None
            digit = _CJK_DIGIT[char]
            if digit == 0:
                zero, digit = True, None
            continue
        small = _CJK_SMALL.get(char)
        if small is not None:
            if last_unit and small >= last_unit and last_unit < 10**4:
                return None
            section += (digit if digit is not None else 1) * small
            digit, last_unit, zero = None, small, False
            continue
        big = _CJK_BIG[char]
        if big >= last_big:
            return None
        if digit is not None:
            section += digit
        if section == 0:
            return None
        if big == 10**8:
            total = (total + section) * big
        else:
            total += section * big
        section, digit, last_unit, last_big, zero = 0, None, big, big, False
    if digit is not None:
        if last_unit and not zero:
            digit *= last_unit // 10       # 一千二 = 1200, 三万五 = 35000
        section += digit
    return total + section
