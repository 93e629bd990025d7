// The extension's words, in the languages of the course (en, ru, zh_CN).
//
// A small table rather than a gettext catalog: JupyterLab reads an extension's catalogs
// only from a language pack (a Python package per language, built from .po files), which
// would be a package and a build step for two sentences. The widgets' own catalogs
// (widgets/locale/) are read by the kernel, not by the browser. The keys are the English
// sentences, as in a catalog; tests/widgets/test_labextension.py checks that every sentence
// has every language.

export const WORDS = {
  'stored picture; run the cell to step it': {
    ru: 'сохранённый рисунок; запустите ячейку, чтобы пройти его по шагам',
    zh_CN: '已保存的图片；运行此单元格即可逐步查看'
  },
  'no stored picture; run the cell to draw it': {
    ru: 'рисунок не сохранён; запустите ячейку, чтобы нарисовать его',
    zh_CN: '没有保存的图片；运行此单元格即可画出'
  }
};

// JupyterLab's language code ("en", "ru-RU", "zh-CN") -> the table's ("en", "ru", "zh_CN").
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

// `sentence` in the language JupyterLab speaks, English where the table has no translation.
export function translate(sentence, languageCode) {
  const translations = WORDS[sentence] || {};
  return translations[tableLanguage(languageCode)] || sentence;
}
