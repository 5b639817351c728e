import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const codeDecks = lazy(() => import('./CodeDecksPage'));
const codeDeckEdit = lazy(() => import('./CodeDeckEditPage'));
const codes = lazy(() => import('./CodeDeckCodesPage'));
const rateTables = lazy(() => import('./RateTablesPage'));
const rateTableEdit = lazy(() => import('./RateTableEditPage'));
const rates = lazy(() => import('./RatesPage'));
const templates = lazy(() => import('./UploadTemplatesPage'));
const templateEdit = lazy(() => import('./UploadTemplateEditPage'));
const rules = lazy(() => import('./AutoImportRulesPage'));
const ruleEdit = lazy(() => import('./AutoImportRuleEditPage'));
const jurisdiction = lazy(() => import('./UsJurisdictionPage'));
const importLog = lazy(() => import('./RateImportLogPage'));
const massEditLog = lazy(() => import('./RateMassEditLogPage'));

/** Routes of the rates area (issue 3), at the paths of spec 02 section 2. */
export const rateRoutes: RouteDef[] = [
  { path: '/configuration/code_deck', title: 'rates.codeDecks', page: codeDecks },
  { path: '/configuration/code_deck/new', title: 'rates.newCodeDeck', page: codeDeckEdit },
  { path: '/configuration/code_deck/edit/:id', title: 'rates.editCodeDeck', page: codeDeckEdit },
  { path: '/configuration/code_deck_list/:id', title: 'rates.codes', page: codes },
  { path: '/routing/rate_table', title: 'rates.rateTables', page: rateTables },
  { path: '/routing/rate_table/new', title: 'rates.newRateTable', page: rateTableEdit },
  { path: '/routing/rate_table/edit/:id', title: 'rates.editRateTable', page: rateTableEdit },
  { path: '/routing/rate_table/editing_ratetable/:id', title: 'rates.editRateTable', page: rateTableEdit },
  { path: '/routing/rate_table/editing_rates/:id', title: 'rates.rates', page: rates },
  { path: '/routing/rate_table/code_desk/:id', title: 'rates.codes', page: codes },
  { path: '/routing/rate_table/:redirect/editing_rates/:id', title: 'rates.rates', page: rates },
  { path: '/termination/rate_modification/:rateTableId', title: 'rates.rateModification', page: rates },
  { path: '/configuration/us_jurisdiction', title: 'rates.usJurisdiction', page: jurisdiction },
  { path: '/template/rate_upload_template', title: 'rates.uploadTemplates', page: templates },
  { path: '/template/rate_upload_template/new', title: 'rates.newUploadTemplate', page: templateEdit },
  { path: '/template/rate_upload_template/edit/:id', title: 'rates.editUploadTemplate', page: templateEdit },
  { path: '/tools/auto_rate_import_rules', title: 'rates.autoImportRules', page: rules },
  { path: '/tools/auto_rate_import_rules/new', title: 'rates.newAutoImportRule', page: ruleEdit },
  { path: '/tools/auto_rate_import_rules/edit/:id', title: 'rates.editAutoImportRule', page: ruleEdit },
  { path: '/log/rate_import_log', title: 'rates.importLog', page: importLog },
  { path: '/log/rate_mass_edit_log', title: 'rates.massEditLog', page: massEditLog },
];
