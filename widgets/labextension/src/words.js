// The extension's words, in the languages of the course (en, ru, zh_CN).
//
// English is written where a sentence is used, marked N_('...') so that `make catalogs`
// extracts it into the widgets' gettext template (babel.cfg maps this folder), and it is
// translated in the widgets' catalogs (widgets/locale/{ru,zh_CN}/LC_MESSAGES/widgets.po)
// like every other word the widgets show. The browser cannot read those catalogs (JupyterLab
// reads an extension's catalogs only from a language pack, a Python package per language), so
// `make labextension` writes the translations of this folder's sentences into words.json
// (scripts/labextension_words.py) before it builds; tests/widgets/test_labextension.py fails
// when words.json is not what the catalogs make today.

import WORDS from './words.json';

// `sentence` itself: marks an English sentence for extraction (as N_ does in widgets/i18n.py).
export function N_(sentence) {
  return sentence;
}

// JupyterLab's language code ("en", "ru-RU", "zh-CN") -> the catalogs' ("en", "ru", "zh_CN").
export function tableLanguage(languageCode) {
  const [language, region] = String(languageCode || 'en').split(/[-_]/);
  if (language.toLowerCase() === 'zh') {
    // Only simplified Chinese is translated; traditional Chinese reads English here.
    return ['CN', 'SG', 'HANS', undefined].includes(region && region.toUpperCase())
      ? 'zh_CN'
      : 'en';
  }
  return language.toLowerCase();
}

// `sentence` in the language JupyterLab speaks, English where the catalogs have no translation.
export function translate(sentence, languageCode) {
  const translations = WORDS[sentence] || {};
  return translations[tableLanguage(languageCode)] || sentence;
}
