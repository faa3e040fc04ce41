"""A one-product shop ruleset in any locale and currency, for the tests of money as each
country writes it (claims read, fallbacks rendered)."""

from __future__ import annotations


def local_shop_source(locale: str, currency: str, fallback: str = "", actions: str = "") -> str:
    """The ruleset's text: a product of sku, name and price; ``fallback`` (a whole fallback
    statement) and ``actions`` (lines of ``on ...``) go before the catch-all refusal."""
    return f'''ruleset shop {{
  version "1"
  locale {locale}
  currency {currency}
  timezone "UTC"
}}
entity product {{
  key sku
  field sku identifier
  field name text
  field price money
}}
{fallback}prose guarded
{actions}on otherwise refuse "refused"
'''
