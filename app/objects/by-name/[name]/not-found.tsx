export { ObjectNotFound as default } from "@/components/objects/object-not-found";
