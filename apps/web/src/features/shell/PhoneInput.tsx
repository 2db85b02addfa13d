import { TextInput, type TextInputProps } from "@mantine/core";
import { PHONE_MASK_PLACEHOLDER, formatPhoneInput } from "../../lib/phone";

export type PhoneInputProps = Omit<TextInputProps, "value" | "onChange"> & {
  value: string;
  onChange: (value: string) => void;
};

/** A phone number typed into the mask (###)-###-####. */
export function PhoneInput({ value, onChange, ...props }: PhoneInputProps) {
  return (
    <TextInput
      type="tel"
      inputMode="tel"
      autoComplete="off"
      placeholder={PHONE_MASK_PLACEHOLDER}
      maxLength={14}
      {...props}
      value={value}
      onChange={(event) => onChange(formatPhoneInput(event.currentTarget.value))}
    />
  );
}
