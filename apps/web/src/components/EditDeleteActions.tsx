import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The edit and delete buttons of a table row; test ids are `edit-{testId}` and `delete-{testId}`.
 * `disabled` while another row is being edited in place.
 */
export function EditDeleteActions({
  onEdit,
  onDelete,
  testId,
  disabled = false,
}: {
  onEdit: () => void;
  onDelete: () => void;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Space size={2}>
      <Tooltip title={t('common.edit')}>
        <Button
          size="small"
          type="text"
          icon={<EditOutlined />}
          disabled={disabled}
          onClick={onEdit}
          data-testid={`edit-${testId}`}
          aria-label={t('common.edit')}
        />
      </Tooltip>
      <Tooltip title={t('common.delete')}>
        <Button
          size="small"
          type="text"
          danger
          icon={<DeleteOutlined />}
          disabled={disabled}
          onClick={onDelete}
          data-testid={`delete-${testId}`}
          aria-label={t('common.delete')}
        />
      </Tooltip>
    </Space>
  );
}

/**
 * The actions of a table row edited in place: Save and Cancel (`{savePrefix}-save`,
 * `{savePrefix}-cancel`) while it is the row being edited, else edit and delete, disabled while
 * another row is.
 */
export function InlineEditActions({
  editingThis,
  editingOther,
  onSave,
  onCancel,
  savePrefix,
  ...row
}: {
  editingThis: boolean;
  editingOther: boolean;
  onSave: () => void;
  onCancel: () => void;
  savePrefix: string;
  onEdit: () => void;
  onDelete: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (!editingThis) return <EditDeleteActions {...row} disabled={editingOther} />;
  return (
    <Space size={4}>
      <Button size="small" type="primary" onClick={onSave} data-testid={`${savePrefix}-save`}>
        {t('common.save')}
      </Button>
      <Button size="small" onClick={onCancel} data-testid={`${savePrefix}-cancel`}>
        {t('common.cancel')}
      </Button>
    </Space>
  );
}
