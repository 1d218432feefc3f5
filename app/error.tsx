"use client";

export { PageError as default } from "@/components/page-error";
