import { yupResolver } from '@hookform/resolvers/yup';
import { Button, Form, Input, Modal } from 'antd';
import { useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import * as yup from 'yup';
import { FormField } from '../../../components/form-field';
import { busy } from '../../../lib/busy';
import { useSubmitOnce } from '../../../lib/submit-once';
import { showServerFieldErrors } from '../../../lib/server-field-errors';

interface TextFieldDialogProps {
  open: boolean;
  title: string;
  label: string;
  initialValue: string;
  max: number;
  multiline?: boolean;
  placeholder?: string;
  /** The request's name for the text (`bio`): the server's sentence about it shows under the field. */
  serverField: string;
  onClose: () => void;
  /** Resolves when saved (the dialog then closes); rejects to keep the dialog open. */
  onSave: (value: string) => Promise<unknown>;
}

/**
 * A dialog editing one short text (bio, position) with a visible character counter; a text over
 * the limit is refused here, before it reaches the server.
 */
export function TextFieldDialog(props: TextFieldDialogProps) {
  const fieldId = useId();
  return (
    <Modal
      open={props.open}
      title={props.title}
      onCancel={props.onClose}
      footer={null}
      // The form's own Close button (and Escape) close it: no second, icon-only "Close".
      closable={false}
      destroyOnHidden
      afterOpenChange={(open) => {
        if (open) document.getElementById(fieldId)?.focus();
      }}
    >
      {props.open && <TextFieldForm {...props} fieldId={fieldId} />}
    </Modal>
  );
}

function TextFieldForm({
  fieldId,
  label,
  initialValue,
  max,
  multiline,
  placeholder,
  serverField,
  onClose,
  onSave,
}: TextFieldDialogProps & { fieldId: string }) {
  const schema = useMemo(
    () => yup.object({ value: yup.string().max(max, `${label} must be at most ${max} characters`).defined() }),
    [label, max],
  );
  const { control, handleSubmit, formState, setError } = useForm<{ value: string }>({
    resolver: yupResolver(schema),
    mode: 'onChange',
    defaultValues: { value: initialValue },
  });
  const send = handleSubmit(async ({ value }) => {
    try {
      await onSave(value.trim());
      onClose();
    } catch (failure) {
      // The caller has told the user; the dialog stays open with their text, and the server's
      // sentence, if it names the field, under it.
      showServerFieldErrors(failure, setError, { [serverField]: 'value' });
    }
  });
  // Done pressed twice (or Enter held) saves once.
  const submit = useSubmitOnce(send);

  return (
    <Form layout="vertical" onFinish={() => void submit()}>
      <FormField control={control} name="value" label={label} id={fieldId} max={max}>
        {(input) =>
          multiline ? (
            <Input.TextArea {...input} placeholder={placeholder} autoSize={{ minRows: 3, maxRows: 8 }} />
          ) : (
            <Input {...input} placeholder={placeholder} />
          )
        }
      </FormField>
      <div className="text-field-dialog-actions">
        <Button onClick={onClose}>Close</Button>
        <Button type="primary" htmlType="submit" loading={busy(formState.isSubmitting)}>
          Done
        </Button>
      </div>
    </Form>
  );
}
