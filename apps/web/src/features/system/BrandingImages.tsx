import { api } from '@tandem/contract';
import { Button, Space, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { call, upload } from '../../api/client';
import { useFeedback } from '../../app/feedback';

type Branding = typeof api.config.loginBranding._output;
const ENTITIES = ['logo', 'favicon', 'background'] as const;
type Entity = (typeof ENTITIES)[number];
const KEY = { logo: 'logo_image_id', favicon: 'favicon_id', background: 'background_image_id' } as const;

/**
 * The login page's images (logo, favicon, background): upload one (the server checks type and
 * size), see it, remove it (back to the built-in one). One piece for the first-time wizard and
 * Configuration > Login Page Content.
 */
export function BrandingImages({
  branding,
  onChanged,
  testPrefix,
}: {
  branding: Branding | undefined;
  onChanged: () => Promise<unknown>;
  testPrefix: string;
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const save = async (entity: Entity, id: number | null) => {
    await call(api.config.patchLoginBranding, { body: { [KEY[entity]]: id } }, { errorMode: 'inline' });
    await onChanged();
  };
  const uploadImage = async (entity: Entity, file: File) => {
    const fd = new FormData();
    fd.append('entity', entity);
    fd.append('format', file.name.split('.').pop()!.toLowerCase());
    fd.append('file', file);
    const { object_id } = await upload(api.config.importFile.path, fd);
    await save(entity, object_id);
    flash(t('upload.importedSuccessfully'));
  };
  return (
    <Space direction="vertical" size="middle">
      {ENTITIES.map((entity) => {
        const id = branding?.[KEY[entity]] ?? null;
        return (
          <Space key={entity}>
            <span style={{ width: 140, display: 'inline-block' }}>{t(`system.${entity}`)}</span>
            <Upload
              accept=".png,.jpg,.jpeg,.svg,.ico"
              showUploadList={false}
              beforeUpload={(f) => {
                void uploadImage(entity, f);
                return false;
              }}
            >
              <Button data-testid={`${testPrefix}-upload-${entity}`}>{t('upload.start')}</Button>
            </Upload>
            {id !== null && (
              <>
                <img
                  src={`/api/config/export/public/${id}`}
                  alt=""
                  style={{ height: 32, maxWidth: 160, objectFit: 'contain' }}
                  data-testid={`${testPrefix}-image-${entity}`}
                />
                <Button
                  size="small"
                  onClick={() => void save(entity, null)}
                  data-testid={`${testPrefix}-remove-${entity}`}
                >
                  {t('system.removeImage')}
                </Button>
              </>
            )}
          </Space>
        );
      })}
    </Space>
  );
}
