import { Form } from 'antd';
import { type CSSProperties, type ReactElement, type ReactNode, useId } from 'react';
import {
  type Control,
  Controller,
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';

/**
 * What FormField hands its input, to spread onto it: react-hook-form's value, change, blur and
 * ref; the id the label points at; `aria-invalid` and `aria-describedby` (the error's text) while
 * the field has an error; and the character counter when the field has a limit.
 */
export type FormFieldInput<TValues extends FieldValues, TName extends FieldPath<TValues>> = ControllerRenderProps<
  TValues,
  TName
> & {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  count?: { show: true; max: number };
};

interface FormFieldProps<TValues extends FieldValues, TName extends FieldPath<TValues>, TTransformed> {
  control: Control<TValues, unknown, TTransformed>;
  name: TName;
  label: ReactNode;
  /** The input's id, when something else needs it (a button that focuses the field); else generated. */
  id?: string;
  /** Marks the label as required (the rule itself is the form's schema). */
  required?: boolean;
  /** The field's length limit: shows the "12 / 80" counter. */
  max?: number;
  style?: CSSProperties;
  /** The input itself (Input, TextArea, Password, Select…), given the props above. */
  children: (input: FormFieldInput<TValues, TName>) => ReactElement;
}

/**
 * One labelled form field bound to react-hook-form: the label, the input, its counter, and the
 * field's error (the schema's, or the server's when set with setError) right under it. Every form
 * of the app builds its fields with it, so they all look, read aloud and report errors alike.
 */
export function FormField<TValues extends FieldValues, TName extends FieldPath<TValues>, TTransformed = TValues>({
  control,
  name,
  label,
  id,
  required,
  max,
  style,
  children,
}: FormFieldProps<TValues, TName, TTransformed>) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const errorId = `${inputId}-error`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState: { error } }) => (
        <Form.Item
          label={label}
          htmlFor={inputId}
          required={required}
          validateStatus={error ? 'error' : undefined}
          // Announced when it appears, and read again with the input (aria-describedby).
          help={
            error?.message ? (
              <span id={errorId} role="alert">
                {error.message}
              </span>
            ) : undefined
          }
          style={style}
        >
          {children({
            ...field,
            id: inputId,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error?.message ? errorId : undefined,
            ...(max === undefined ? {} : { count: { show: true, max } }),
          })}
        </Form.Item>
      )}
    />
  );
}
