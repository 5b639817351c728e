import { registerTranslations } from '../../i18n/register';

const en = {
  paymentTerms: 'Payment Terms', newPaymentTerm: 'New Payment Term', editPaymentTerm: 'Edit Payment Term', name: 'Name',
  invoicingCycle: 'Invoicing cycle', graceDays: 'Grace period (days)', notifyDays: 'Notify (days before due)', usage: 'Used by', updated: 'Updated',
  cycles: { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly', yearly: 'Yearly' },
  timeProfiles: 'Time Profiles', newTimeProfile: 'New Time Profile', editTimeProfile: 'Edit Time Profile', type: 'Type',
  types: { all_time: 'All time', daily: 'Daily', weekly: 'Weekly' }, startDay: 'Start day', endDay: 'End day', startTime: 'Start time', endTime: 'End time',
  days: { '0': 'Sunday', '1': 'Monday', '2': 'Tuesday', '3': 'Wednesday', '4': 'Thursday', '5': 'Friday', '6': 'Saturday' }, general: 'General', window: 'When',
};
const de: typeof en = {
  paymentTerms: 'Zahlungsbedingungen', newPaymentTerm: 'Neue Zahlungsbedingung', editPaymentTerm: 'Zahlungsbedingung bearbeiten', name: 'Name',
  invoicingCycle: 'Rechnungszyklus', graceDays: 'Karenzzeit (Tage)', notifyDays: 'Erinnerung (Tage vor Fälligkeit)', usage: 'Verwendet von', updated: 'Geändert',
  cycles: { daily: 'Täglich', weekly: 'Wöchentlich', monthly: 'Monatlich', yearly: 'Jährlich' },
  timeProfiles: 'Zeitprofile', newTimeProfile: 'Neues Zeitprofil', editTimeProfile: 'Zeitprofil bearbeiten', type: 'Typ',
  types: { all_time: 'Immer', daily: 'Täglich', weekly: 'Wöchentlich' }, startDay: 'Starttag', endDay: 'Endtag', startTime: 'Startzeit', endTime: 'Endzeit',
  days: { '0': 'Sonntag', '1': 'Montag', '2': 'Dienstag', '3': 'Mittwoch', '4': 'Donnerstag', '5': 'Freitag', '6': 'Samstag' }, general: 'Allgemein', window: 'Wann',
};
const ch: typeof en = {
  paymentTerms: '付款条款', newPaymentTerm: '新建付款条款', editPaymentTerm: '编辑付款条款', name: '名称',
  invoicingCycle: '开票周期', graceDays: '宽限期（天）', notifyDays: '提前提醒（天）', usage: '使用数', updated: '更新时间',
  cycles: { daily: '每天', weekly: '每周', monthly: '每月', yearly: '每年' },
  timeProfiles: '时间配置', newTimeProfile: '新建时间配置', editTimeProfile: '编辑时间配置', type: '类型',
  types: { all_time: '全部时间', daily: '每天', weekly: '每周' }, startDay: '开始日', endDay: '结束日', startTime: '开始时间', endTime: '结束时间',
  days: { '0': '星期日', '1': '星期一', '2': '星期二', '3': '星期三', '4': '星期四', '5': '星期五', '6': '星期六' }, general: '常规', window: '时间段',
};
registerTranslations('configuration', { en, de, ch });
