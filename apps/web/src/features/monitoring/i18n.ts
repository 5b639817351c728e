import { registerTranslations } from '../../i18n/register';
import { monitoringDictionaries } from './strings';

registerTranslations('monitoring', monitoringDictionaries);
